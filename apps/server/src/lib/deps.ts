import { studyDefinition, type FlowDefinition, type StudyDefinition } from '@studychat/contracts';
import type { Database } from '../db/database.js';
import type { ChatModel, LlmProvider } from '../llm/chat-model.js';
import type { ClockControl } from './test-clock.js';

/**
 * Where the server finds the study definition an experiment runs: the version it pins (study_versions).
 * Rules take the definition from here, never by importing a study.
 */
export type StudySource = (experimentId: string) => Promise<StudyDefinition>;

/**
 * The flow an experiment runs when its pinned version is written as a flow (issue 30); null when it runs a study
 * in the built-in shape (those run on the spec's routes, `StudySource`).
 */
export type FlowSource = (experimentId: string) => Promise<FlowDefinition | null>;

/** The built-in study for every experiment (unit tests of rules that need no database). */
export const builtInStudy: StudySource = () => Promise.resolve(studyDefinition);

/** No experiment runs a flow (unit tests with the built-in study). */
export const noFlows: FlowSource = () => Promise.resolve(null);

/** What the app needs from the outside world; tests pass their own clock and ids (DESIGN.md convention 3). */
export interface AppDeps {
  database: Database;
  clock: () => Date;
  newId: () => string;
  /** Uniform random number in [0, 1); randomisation draws from it. */
  random: () => number;
  /** The chat model (llm/): a real provider, or the scripted offline model. */
  llm: ChatModel;
  /** The other providers' models a study's arm may name (llm/model-choice.ts); absent: none configured. */
  providers?: Partial<Record<LlmProvider, ChatModel>>;
  studies: StudySource;
  flows: FlowSource;
  /**
   * Waits `ms` before a reply asks again for its turn at the provider (docs/decisions/0076); a timer when absent.
   * Tests pass one that moves their clock instead of waiting.
   */
  sleep?: (ms: number) => Promise<void>;
  /** Set only for the browser tests (TEST_CLOCK=manual with NODE_ENV=test): moves `clock` forward. */
  clockControl?: ClockControl;
}
