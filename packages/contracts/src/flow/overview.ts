import { sectionMinSeconds } from '../study/sections.js';
import type { ContentBlock } from '../study/types.js';
import { ruleHolds, ruleKeys, stepsFor, type AnswerValue } from './rules.js';
import type { FlowDefinition, FlowQuestion, FlowStep, Rule } from './types.js';

// What a researcher should see of a flow before launch (issue 31): the steps each condition walks, the pathways
// it can end on, the least time a participant needs and an estimate of the time they take, and warnings: what
// the flow's checks (checks.ts) let through because it can run, but is probably not what was meant. Zod-free and
// pure: the builder shows it as the flow is edited.

/** Seconds an estimate gives each kind of effort (stated on the page beside the estimate). */
export const ESTIMATE = {
  /** Reading speed, words per minute. */
  wordsPerMinute: 200,
  /** Per question answered. */
  secondsPerQuestion: 10,
  /** Per chat round (reading the reply and writing the next message). */
  secondsPerRound: 60,
  /** An AI text: waiting for it and reading it. */
  secondsPerAiText: 30,
} as const;

export interface ConditionWalk {
  /** The condition's id; null for a study with one walk before any randomisation. */
  condition: string | null;
  /** The steps walked in order, up to and including the first end step. */
  steps: { id: string; type: FlowStep['type']; title: string }[];
  /** The pathways this walk can end on: its screens', its checks' and its first end step's. */
  pathways: string[];
  /** Whether the walk has a chat (an arm without a chat is a condition whose walk has none). */
  chat: boolean;
  /** The least seconds the server lets a participant take: pages' and reading sections' minima, chat minutes. */
  minimumSeconds: number;
  /** An estimate of the seconds a participant takes (ESTIMATE), at least the minimum. */
  estimatedSeconds: number;
}

export interface FlowWarning {
  /** The place it concerns (as the checks name places: `steps.3`), or '' for the whole study. */
  path: string;
  message: string;
}

export interface FlowOverview {
  walks: ConditionWalk[];
  warnings: FlowWarning[];
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;

function blockWords(block: ContentBlock): number {
  return (
    words(block.markdown ?? '') +
    words(block.heading ?? '') +
    (block.paragraphs ?? []).reduce((n, p) => n + words(p), 0) +
    (block.bullets ?? []).reduce((n, p) => n + words(p), 0) +
    (block.table ? block.table.rows.flat().reduce((n, c) => n + words(c), 0) : 0)
  );
}

const readingSeconds = (count: number) => Math.round((count / ESTIMATE.wordsPerMinute) * 60);

/** The least and estimated seconds of one step for a condition. */
function stepSeconds(step: FlowStep, condition: string | null): { minimum: number; estimate: number } {
  switch (step.type) {
    case 'page': {
      const minimum = step.minSeconds ?? 0;
      return {
        minimum,
        estimate: Math.max(minimum, readingSeconds(step.blocks.reduce((n, b) => n + blockWords(b), 0))),
      };
    }
    case 'questions':
      return { minimum: 0, estimate: step.questions.length * ESTIMATE.secondsPerQuestion };
    case 'reading': {
      const sections = condition === null ? [] : (step.sections[condition] ?? []);
      const minimum = sections.reduce((n, s) => n + sectionMinSeconds(s), 0);
      const read = readingSeconds(sections.reduce((n, s) => n + s.blocks.reduce((m, b) => m + blockWords(b), 0), 0));
      return { minimum, estimate: Math.max(minimum, read) };
    }
    case 'chat': {
      const arm = condition === null ? undefined : step.arms[condition];
      if (!arm) return { minimum: 0, estimate: 0 };
      const minimum = (arm.completion.minMinutes ?? 0) * 60;
      const rounds = arm.completion.rounds * ESTIMATE.secondsPerRound;
      const most = arm.completion.maxMinutes === undefined ? Infinity : arm.completion.maxMinutes * 60;
      return { minimum, estimate: Math.max(minimum, Math.min(rounds, most)) };
    }
    case 'ai_text':
      return { minimum: 0, estimate: ESTIMATE.secondsPerAiText };
    case 'end':
      return { minimum: 0, estimate: readingSeconds(step.blocks.reduce((n, b) => n + blockWords(b), 0)) };
    case 'randomise':
    case 'screen':
      return { minimum: 0, estimate: 0 };
  }
}

function walkOf(flow: FlowDefinition, condition: string | null): ConditionWalk {
  const all = stepsFor(flow, condition);
  const end = all.findIndex((s) => s.type === 'end');
  const steps = end === -1 ? all : all.slice(0, end + 1);
  const pathways = new Set<string>();
  let minimumSeconds = 0;
  let estimatedSeconds = 0;
  for (const step of steps) {
    if (step.type === 'screen') pathways.add(step.pathway);
    if (step.type === 'end') pathways.add(step.pathway);
    if (step.type === 'questions')
      for (const q of step.questions) if (q.check && 'end' in q.check.onFail) pathways.add(q.check.onFail.end);
    const seconds = stepSeconds(step, condition);
    minimumSeconds += seconds.minimum;
    estimatedSeconds += seconds.estimate;
  }
  return {
    condition,
    steps: steps.map((s) => ({ id: s.id, type: s.type, title: 'title' in s ? s.title : s.id })),
    pathways: flow.pathways.map((p) => p.key).filter((key) => pathways.has(key)),
    chat: steps.some((s) => s.type === 'chat'),
    minimumSeconds,
    estimatedSeconds,
  };
}

/** Every answer a question can take, when they are few enough to count (else null). */
function possibleAnswers(q: FlowQuestion): AnswerValue[] | null {
  switch (q.type) {
    case 'single':
      return q.options.map((o) => o.value);
    case 'likert':
      return Array.from({ length: q.points }, (_, i) => i + 1);
    case 'slider': {
      const count = Math.floor((q.max - q.min) / q.step) + 1;
      return count > 1001 ? null : Array.from({ length: count }, (_, i) => q.min + i * q.step);
    }
    case 'number': {
      if (!q.integer || q.min === undefined || q.max === undefined || q.max - q.min > 1000) return null;
      return Array.from({ length: q.max - q.min + 1 }, (_, i) => (q.min ?? 0) + i);
    }
    case 'multiple':
    case 'text':
      return null;
  }
}

function questionsByKey(flow: FlowDefinition): Map<string, FlowQuestion> {
  const byKey = new Map<string, FlowQuestion>();
  for (const step of flow.steps) if (step.type === 'questions') for (const q of step.questions) byKey.set(q.key, q);
  return byKey;
}

/** A screen on one question that ends the study for most of its possible answers. */
function screenWarning(rule: Rule, questions: Map<string, FlowQuestion>, at: string): FlowWarning | null {
  const keys = [...new Set(ruleKeys(rule))];
  const key = keys[0];
  if (keys.length !== 1 || key === undefined) return null;
  const question = questions.get(key);
  const answers = question ? possibleAnswers(question) : null;
  if (!answers || answers.length === 0) return null;
  const ending = answers.filter((answer) => ruleHolds(rule, { [key]: answer })).length;
  if (ending * 2 <= answers.length) return null;
  return {
    path: at,
    message: `this screen ends the study for ${ending} of the ${answers.length} possible answers to "${key}": most participants would leave here`,
  };
}

/** What to look at before launch, besides the problems the checks refuse. */
function warningsOf(flow: FlowDefinition, walks: ConditionWalk[]): FlowWarning[] {
  const warnings: FlowWarning[] = [];
  const questions = questionsByKey(flow);
  flow.steps.forEach((step, index) => {
    const at = `steps.${index}`;
    if (step.type === 'screen') {
      const warning = screenWarning(step.when, questions, `${at}.when`);
      if (warning) warnings.push(warning);
    }
    if (step.type === 'chat') {
      for (const [condition, arm] of Object.entries(step.arms)) {
        const { rounds, points, minMinutes } = arm.completion;
        if (rounds === 0 && points === 0 && !minMinutes)
          warnings.push({
            path: `${at}.arms.${condition}.completion`,
            message: `the chat of "${condition}" is done before the participant writes anything: give it rounds, points or minutes`,
          });
      }
    }
    if (!walks.some((walk) => walk.steps.some((s) => s.id === step.id)) && step.type !== 'end') {
      warnings.push({ path: at, message: 'no condition walks this step' });
    }
  });
  flow.pathways.forEach((pathway, index) => {
    if (!walks.some((walk) => walk.pathways.includes(pathway.key)))
      warnings.push({
        path: `pathways.${index}`,
        message: `no participant can end on the pathway "${pathway.key}": no screen, check or end step of any walk leads to it`,
      });
  });
  for (const walk of walks) {
    if (walk.condition !== null && walk.minimumSeconds > 60 * 60)
      warnings.push({
        path: '',
        message: `condition "${walk.condition}" needs at least ${Math.round(walk.minimumSeconds / 60)} minutes: check the minimum times`,
      });
  }
  return warnings;
}

/** The walk of each condition (one walk for a study without randomisation) and the warnings. */
export function flowOverview(flow: FlowDefinition): FlowOverview {
  const randomised = flow.steps.some((s) => s.type === 'randomise');
  const conditions: (string | null)[] = randomised ? flow.conditions.map((c) => c.id) : [null];
  const walks = conditions.map((condition) => walkOf(flow, condition));
  return { walks, warnings: warningsOf(flow, walks) };
}
