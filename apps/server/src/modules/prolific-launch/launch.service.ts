import { CREDENTIAL_BATCH_MAX, type ProlificLaunch, type ProlificLaunchBody } from '@studychat/contracts';
import { AppError } from '../../lib/errors.js';
import { generateCredentials } from '../experiments/credentials.service.js';
import { asAppError, clientOf, linkedStudyIdOf, setProlificStudyLink } from '../prolific/prolific.service.js';
import { createCredentialPool, createDraftStudy, publishStudy, type DraftStudy } from '../prolific/prolific-studies.js';
import { computeChecklist, launchFacts, launchOf, type LaunchContext } from './checklist.service.js';
import {
  claimLaunch,
  dropUnlinkedDraft,
  moveLaunch,
  readLaunch,
  recordDraft,
  releaseLaunch,
} from './launch.repository.js';

// Launching an experiment on Prolific (docs/decisions/0090-prolific-launch.md): a draft study made from the
// experiment, claimed in the database first (two launches at once make one study; a second is refused), then
// published once the checklist passes.

/** Prolific advises 50% more credentials than places (returned and rejected participants keep theirs). */
const CREDENTIAL_SPARE_FACTOR = 1.5;

/** The study URL: our landing with the experiment's id and Prolific's three placeholders, left unencoded. */
export function studyUrlOf(publicUrl: string, experimentId: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return (
    `${base}/prolific?EXPERIMENT_ID=${encodeURIComponent(experimentId)}` +
    '&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}'
  );
}

const notConfigured = () =>
  new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first (Security page, Prolific card).');

export async function launchOnProlific(
  ctx: LaunchContext,
  experimentId: string,
  userId: string,
  body: ProlificLaunchBody,
): Promise<ProlificLaunch> {
  const { deps } = ctx;
  const { db } = deps.database;
  const facts = await launchFacts(ctx, experimentId);
  // With no token nothing is checked further and nothing is called.
  if (!facts.tokenSet) throw notConfigured();
  const settings = new Map(body.pathways.map((p) => [p.pathway, p]));
  const unknown = body.pathways.find((p) => !facts.pathways.some((f) => f.key === p.pathway));
  if (unknown) throw new AppError(400, 'VALIDATION_FAILED', `The study has no pathway "${unknown.pathway}".`);
  const unset = facts.pathways.find((p) => !settings.has(p.key));
  if (unset) throw new AppError(400, 'VALIDATION_FAILED', `Choose what Prolific does for “${unset.label}”.`);
  const noCode = facts.pathways.find((p) => p.code === null);
  if (noCode) {
    throw new AppError(400, 'CODE_NOT_CONFIGURED', `Set a completion code for “${noCode.label}” before launching.`);
  }
  if (new Set(facts.pathways.map((p) => p.code)).size !== facts.pathways.length) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Prolific needs a different completion code for each pathway.');
  }
  if (facts.usesLogins && !body.workspaceId) {
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      'Participants join with study logins: give the Prolific workspace ID for the credentials pool.',
    );
  }
  if (facts.launch) {
    // A draft the researcher unlinked (deleted on Prolific, say) may be replaced; anything else is refused.
    const unlinkedDraft = facts.launch.state === 'draft' && (await linkedStudyIdOf(deps, experimentId)) === null;
    if (!unlinkedDraft || !(await dropUnlinkedDraft(db, experimentId, facts.launch.study_id ?? ''))) {
      throw new AppError(409, 'CONFLICT', 'This experiment was already launched on Prolific.');
    }
  }
  const client = await clientOf(ctx.runtime);
  if (!client) throw notConfigured();

  const now = deps.clock().toISOString();
  if (!(await claimLaunch(db, { experimentId, by: userId, at: now }))) {
    throw new AppError(409, 'CONFLICT', 'This experiment was already launched on Prolific.');
  }
  const studyUrl = studyUrlOf(ctx.publicUrl, experimentId);
  try {
    let credentialPoolId: string | undefined;
    let credentials = 0;
    if (facts.usesLogins && body.workspaceId) {
      const logins = await newLogins(ctx, experimentId, userId, Math.ceil(body.places * CREDENTIAL_SPARE_FACTOR));
      credentialPoolId = await createCredentialPool(
        client,
        body.workspaceId,
        logins.map((l) => ({ username: l.email, password: l.password })),
      );
      credentials = logins.length;
    }
    const study: DraftStudy = {
      name: body.title ?? facts.experiment.name,
      internal_name: `StudyChat ${facts.experiment.name} (${experimentId})`,
      description: body.description ?? facts.experiment.description ?? facts.experiment.name,
      external_study_url: studyUrl,
      prolific_id_option: 'url_parameters',
      completion_codes: facts.pathways.map((p) => {
        const setting = settings.get(p.key);
        return {
          code: p.code ?? '',
          code_type: setting?.outcome === 'screened_out' ? 'OTHER' : 'COMPLETED',
          actions: [{ action: setting?.action ?? 'MANUALLY_REVIEW' }],
        };
      }),
      total_available_places: body.places,
      estimated_completion_time: body.estimatedMinutes,
      reward: body.rewardMinor,
      device_compatibility: [...body.devices],
      ...(credentialPoolId ? { credential_pool_id: credentialPoolId } : {}),
    };
    const created = await createDraftStudy(client, study);
    await setProlificStudyLink(ctx.runtime, experimentId, created.id);
    await recordDraft(db, { experimentId, studyId: created.id, studyUrl, credentials, at: deps.clock().toISOString() });
  } catch (error) {
    await releaseLaunch(db, experimentId);
    throw asAppError(error);
  }
  return launchOf(experimentId, await readLaunch(db, experimentId));
}

/** Fresh study logins for the pool: their passwords exist only now (stored as an HMAC, decision 0018). */
async function newLogins(ctx: LaunchContext, experimentId: string, userId: string, count: number) {
  const logins: { email: string; password: string }[] = [];
  for (let left = count; left > 0; left -= CREDENTIAL_BATCH_MAX) {
    const batch = Math.min(left, CREDENTIAL_BATCH_MAX);
    logins.push(...(await generateCredentials(ctx.deps, ctx.pepper, experimentId, batch, userId)));
  }
  return logins;
}

/** Publishes the draft once every checklist item passes (409 naming the failing items otherwise). */
export async function publishOnProlific(ctx: LaunchContext, experimentId: string): Promise<ProlificLaunch> {
  const { deps } = ctx;
  const { db } = deps.database;
  const checklist = await computeChecklist(ctx, experimentId);
  if (checklist.launch.state === 'published') {
    throw new AppError(409, 'CONFLICT', 'The study is already published on Prolific.');
  }
  const failing = checklist.items.filter((i) => !i.ok);
  if (failing.length > 0) {
    throw new AppError(
      409,
      'CONFLICT',
      `Not ready to publish: ${failing.map((i) => i.label.toLowerCase()).join('; ')}.`,
      undefined,
      { issues: failing.map((i) => ({ path: i.key, message: i.detail })) },
    );
  }
  const client = await clientOf(ctx.runtime);
  if (!client) throw notConfigured();
  const studyId = checklist.launch.studyId;
  if (!studyId || !(await moveLaunch(db, { experimentId, from: 'draft', to: 'publishing', at: now(ctx) }))) {
    throw new AppError(409, 'CONFLICT', 'The study is being published by another request.');
  }
  try {
    await publishStudy(client, studyId);
  } catch (error) {
    await moveLaunch(db, { experimentId, from: 'publishing', to: 'draft', at: now(ctx) });
    throw asAppError(error);
  }
  await moveLaunch(db, { experimentId, from: 'publishing', to: 'published', at: now(ctx), published: true });
  return launchOf(experimentId, await readLaunch(db, experimentId));
}

const now = (ctx: LaunchContext) => ctx.deps.clock().toISOString();
