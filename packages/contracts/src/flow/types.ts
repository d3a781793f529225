import type { ChatRule } from '../chat-progress.js';
import type { ChatModelSettings, ConditionDeclaration, ContentBlock, StaticSection } from '../study/types.js';

// A study as a flow of steps (issue 30, docs/decisions/0075): the server walks the steps in order for each
// participant; a step is shown to every condition or to the ones it names. Any design is a definition, never a
// code change. The built-in MMR study is one (flow/legacy.ts: its steps keep the spec's routes and pages).

/** The providers a chat or AI text step may call; absent: the deployment's configured provider. */
export type FlowProvider = 'anthropic' | 'openai' | 'scripted';

/** A model call's settings: which provider and model, and the request's knobs (each absent: the deployment's). */
export interface FlowModel extends ChatModelSettings {
  provider?: FlowProvider;
}

/** One option of a single or multiple choice question. */
export interface FlowOption {
  /** Stored in the answers and the data (multiple choice: one TRUE/FALSE column per option). */
  value: string;
  label: string;
}

/** What a failed attention check does: end the study with a pathway, or only flag the participant in the data. */
export type CheckFailure = { end: string } | { flag: true };

/** An attention check on a question: the answer expected, and what another answer does. */
export interface AttentionCheck {
  /** The expected answer (a choice's value, a number, or for multiple choice the values, in any order). */
  expected: string | number | string[];
  onFail: CheckFailure;
}

interface QuestionBase {
  /** The answer's key: its column in the data and its name in pipes (`{{key}}`); unique in the study. */
  key: string;
  text: string;
  /** Shown under the question. */
  help?: string;
  required: boolean;
  check?: AttentionCheck;
}

export type FlowQuestion = QuestionBase &
  (
    | { type: 'single'; options: FlowOption[] }
    | { type: 'multiple'; options: FlowOption[]; minChoices?: number; maxChoices?: number }
    /** 2 to 11 points, 1..points; a label for every point, or for the ends (and the middle). */
    | { type: 'likert'; points: number; labels: { min: string; max: string; mid?: string } | string[] }
    | { type: 'slider'; min: number; max: number; step: number; anchors: { min: string; max: string; mid?: string } }
    | { type: 'number'; min?: number; max?: number; integer: boolean }
    | { type: 'text'; minChars: number; maxChars: number; multiline: boolean }
  );

export type FlowQuestionType = FlowQuestion['type'];

/** A comparison of an earlier answer (or a confirmed AI text) with a value. */
export interface Comparison {
  key: string;
  op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'includes' | 'answered';
  /** 'in': one of these; 'includes': a multiple choice answer holds this value; 'answered': none. */
  value?: string | number | (string | number)[];
}

/** A rule on earlier answers: a comparison, or every / any of several rules. */
export type Rule = Comparison | { all: Rule[] } | { any: Rule[] };

interface StepBase {
  /** Unique in the study; its routes and its rows in the data name it. */
  id: string;
  /** The conditions that see this step (after randomisation); absent: every participant. */
  conditions?: string[];
}

/** A page of text with a button; optionally a minimum time on screen; or the consent page (records consent). */
export interface PageStep extends StepBase {
  type: 'page';
  title: string;
  blocks: ContentBlock[];
  button: string;
  minSeconds?: number;
  /** The button records the participant's informed consent (the spec's consent). */
  consent?: boolean;
}

/** One page of questions. */
export interface QuestionsStep extends StepBase {
  type: 'questions';
  title: string;
  intro?: string;
  questions: FlowQuestion[];
  button: string;
}

/** Timed, scroll-gated sections (the spec's static reading), per condition. */
export interface ReadingStep extends StepBase {
  type: 'reading';
  title: string;
  /** Before the first section. */
  intro: string[];
  /** The sections each condition reads; a condition without an entry skips the step. */
  sections: Record<string, StaticSection[]>;
}

/** One condition's chat: its model, prompt, opening and when it is complete. */
export interface ChatArm {
  model?: FlowModel;
  /** May pipe earlier answers: `{{belief}}`. */
  systemPrompt: string;
  /** The model writes the opening from this instruction; absent: it opens on the system prompt alone. */
  openingInstruction?: string;
  /** Shown when the opening can be neither streamed nor read back. */
  fallbackGreeting: string;
  completion: ChatRule & { minMinutes?: number; maxMinutes?: number };
  /** What the offline scripted model says in this condition. */
  scripted: { opening: string; replies: string[]; closing: string };
}

/** A chat with the AI assistant, per condition (a condition without an arm skips it). */
export interface ChatStep extends StepBase {
  type: 'chat';
  title: string;
  intro: string;
  arms: Record<string, ChatArm>;
}

/** One model call built from earlier answers, shown to the participant, who confirms or corrects it. */
export interface AiTextStep extends StepBase {
  type: 'ai_text';
  title: string;
  /** Above the text: what the participant is asked to do. */
  instructions: string;
  /** The prompt, with pipes (`{{belief}}`). */
  prompt: string;
  model?: FlowModel;
  /** The participant may edit the text before confirming (stored as corrected). */
  allowCorrection: boolean;
  maxChars: number;
  confirmLabel: string;
  /** What the offline scripted model answers. */
  scripted: string;
}

/** A randomisation stratum: the participants whose answer falls in it. */
export interface StratumBin {
  label: string;
  /** The answer is one of these values (choice questions). */
  values?: string[];
  /** The answer is at least `min` and at most `max` (number, slider, likert). */
  min?: number;
  max?: number;
}

/** Assigns a condition: weighted permuted blocks, optionally within strata of an earlier answer. */
export interface RandomiseStep extends StepBase {
  type: 'randomise';
  /** Each condition's weight in a block (whole numbers; a block holds each condition `weight` times). */
  weights: Record<string, number>;
  strata?: { key: string; bins: StratumBin[] };
}

/** Ends the study with a pathway when its rule holds for the participant's answers. */
export interface ScreenStep extends StepBase {
  type: 'screen';
  when: Rule;
  pathway: string;
}

/** Where a pathway ends: its page (the completion code follows it). */
export interface EndStep extends StepBase {
  type: 'end';
  pathway: string;
  title: string;
  blocks: ContentBlock[];
}

export type FlowStep =
  PageStep | QuestionsStep | ReadingStep | ChatStep | AiTextStep | RandomiseStep | ScreenStep | EndStep;
export type FlowStepType = FlowStep['type'];

/** A pathway: how a participant leaves the study, with its completion code (set per experiment). */
export interface FlowPathway {
  /** Stored on the participant's completion; 1-30 lower-case letters, digits or _. */
  key: string;
  /** For researchers: the codes form, the monitor and the codebook. */
  label: string;
  description?: string;
  /** The spec's code key for the built-in study's three pathways (complete, exitnoqualms, exitceiling). */
  codeKey?: string;
}

/** The texts every page of the study shows. */
export interface StudyTexts {
  /** The welcome page's line under the title. */
  welcome: string;
  /** The footer's disclaimer on every study page. */
  disclaimer: string;
}

/** A study as a flow of steps. */
export interface FlowDefinition {
  format: 'flow';
  id: string;
  title: string;
  texts: StudyTexts;
  conditions: ConditionDeclaration[];
  pathways: FlowPathway[];
  steps: FlowStep[];
}
