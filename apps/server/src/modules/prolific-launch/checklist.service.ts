import {
  isFlowDefinition,
  studyPathways,
  type ChecklistItem,
  type ProlificChecklist,
  type ProlificLaunch,
} from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { EXPERIMENT_NOT_FOUND } from '../members/members.service.js';
import { prolificConnection, type ProlificRuntime } from '../prolific/prolific.service.js';
import { lastModelCheck } from '../system/model-check-record.js';
import { codesOf, experimentFacts, linkJoinEnabled, previewWalked, readLaunch } from './launch.repository.js';

// The checklist before publishing on Prolific (docs/decisions/0090-prolific-launch.md), computed on the server
// from what is stored: every item says what is the case and, when it fails, how to fix it. Publishing refuses
// unless every item passes.

export interface LaunchContext {
  deps: AppDeps;
  runtime: ProlificRuntime;
  /** The environment's chat budget (CHAT_BUDGET_USD), the default of an experiment with none of its own. */
  defaultBudgetUsd: number | null;
  publicUrl: string;
  pepper: string;
}

export interface ExperimentPathway {
  key: string;
  label: string;
}

/** The pathways of the pinned study: a flow's own, else the built-in study's three. */
export function pathwaysOf(definitionJson: string | null): ExperimentPathway[] {
  let definition: unknown = undefined;
  try {
    definition = definitionJson ? JSON.parse(definitionJson) : undefined;
  } catch {
    definition = undefined;
  }
  if (isFlowDefinition(definition)) return definition.pathways.map((p) => ({ key: p.key, label: p.label }));
  const study = definition as Parameters<typeof studyPathways>[0];
  return studyPathways(study).map((p) => ({ key: p.pathway, label: p.label }));
}

type LaunchRow = Awaited<ReturnType<typeof readLaunch>>;

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

export function launchOf(experimentId: string, row: LaunchRow): ProlificLaunch {
  return {
    experimentId,
    state: (row?.state as ProlificLaunch['state'] | undefined) ?? null,
    studyId: row?.study_id ?? null,
    studyUrl: row?.study_url ?? null,
    credentials: row?.credentials ?? 0,
    launchedAt: iso(row?.launched_at),
    publishedAt: iso(row?.published_at),
  };
}

export async function launchFacts(ctx: LaunchContext, experimentId: string) {
  const { db } = ctx.deps.database;
  const experiment = await experimentFacts(db, experimentId);
  if (!experiment) throw notFound(EXPERIMENT_NOT_FOUND);
  const [codes, walked, usesLinkJoin, launch, connection] = await Promise.all([
    codesOf(db, experimentId),
    previewWalked(db, experimentId),
    linkJoinEnabled(db, experimentId),
    readLaunch(db, experimentId),
    prolificConnection(ctx.runtime),
  ]);
  const pathways = pathwaysOf(experiment.definition).map((p) => ({ ...p, code: codes.get(p.key) ?? null }));
  return { experiment, pathways, walked, usesLogins: !usesLinkJoin, launch, tokenSet: connection.tokenSet };
}

export async function computeChecklist(ctx: LaunchContext, experimentId: string): Promise<ProlificChecklist> {
  const facts = await launchFacts(ctx, experimentId);
  const { experiment, pathways, walked, launch } = facts;
  const missing = pathways.filter((p) => p.code === null);
  const model = lastModelCheck(ctx.deps);
  const own = experiment.chat_budget_usd === null ? null : Number(experiment.chat_budget_usd);
  const budget = own ?? ctx.defaultBudgetUsd;
  const items: ChecklistItem[] = [
    {
      key: 'connection',
      label: 'Prolific connection set',
      ok: facts.tokenSet,
      detail: facts.tokenSet
        ? 'A Prolific API token is set.'
        : 'No Prolific API token: an admin sets one on the Security page (Prolific card).',
    },
    {
      key: 'open',
      label: 'Experiment open',
      ok: experiment.state === 'open',
      detail:
        experiment.state === 'open'
          ? 'The experiment admits participants.'
          : `The experiment is ${experiment.state}: open it in the “Status” card so participants can join.`,
    },
    {
      key: 'codes',
      label: 'Completion codes set for every pathway',
      ok: missing.length === 0,
      detail:
        missing.length === 0
          ? `All ${pathways.length} pathways have a code.`
          : `No code for ${missing.map((p) => `“${p.label}”`).join(', ')}: set them with “Edit” (completion codes).`,
    },
    {
      key: 'model',
      label: 'Model checked',
      ok: model?.ok === true,
      detail: !model
        ? 'The AI model has not been checked since the server started: run the check in the “AI model” card.'
        : model.ok
          ? `The model check passed (${model.provider}, ${model.model}) at ${model.at}.${model.provider === 'scripted' ? ' It is the scripted offline model: no real AI model answers.' : ''}`
          : 'The last model check failed: fix the model settings and run the check again.',
    },
    {
      key: 'preview',
      label: 'Study walked through',
      ok: walked.previews + walked.pilots > 0,
      detail:
        walked.previews + walked.pilots > 0
          ? `${walked.previews} preview link(s) used, ${walked.pilots} pilot run(s).`
          : 'Nobody walked the study yet: open a link from “Preview as Participant” or run a pilot.',
    },
    {
      key: 'budget',
      label: 'Chat budget set',
      ok: budget !== null && budget > 0,
      detail:
        budget !== null && budget > 0
          ? `Spending limit: $${budget}${own === null ? ' (the server’s default)' : ''}.`
          : 'No chat budget: set one in “Chat limits and budget” so the spend is capped.',
    },
    {
      key: 'draft',
      label: 'Draft study created on Prolific',
      ok: launch?.state === 'draft' || launch?.state === 'published',
      detail:
        launch?.state === 'published'
          ? `Published as study ${launch.study_id ?? ''}.`
          : launch?.state === 'draft'
            ? `Draft study ${launch.study_id ?? ''} is ready to publish.`
            : 'No draft yet: fill in the launch form and press Launch.',
    },
  ];
  return {
    ok: items.every((i) => i.ok),
    items,
    pathways,
    usesLogins: facts.usesLogins,
    launch: launchOf(experimentId, launch),
  };
}
