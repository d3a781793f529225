import { z } from 'zod';
import { defineRoute } from './route.js';
import { Condition, Id, JourneyStep, Pathway, Timestamp } from './common.js';
import { CompletionStatus } from './completion-status.js';
import { CHAT_CLOSE_REASONS } from './chat-limits.js';
import { ENTRY_CHOICE_NAMES } from './constants.js';

/** Most sections a condition may have (a bound on the index a participant sends). */
export const SECTION_INDEX_MAX = 50;
/** Longest time a browser may report for one section, in seconds (a day). */
export const SECTION_SECONDS_MAX = 86_400;

/** One static section of the participant's condition, timed by the server. */
export const SectionTiming = z.object({
  index: z.number().int(),
  /** The section's id in the study definition. */
  id: z.string(),
  minSeconds: z.number().int(),
  /** When the server opened the section for this participant; null until opened. */
  openedAt: Timestamp.nullable(),
  /** When the server accepted the section as finished; null until then. */
  finishedAt: Timestamp.nullable(),
  /**
   * Whole seconds before the server accepts finishing (rounded up): the full minimum until opened, 0 once
   * finished or once the minimum has passed on the server's clock.
   */
  remainingSeconds: z.number().int(),
  /** The same in milliseconds, for a countdown that agrees with the server to the second. */
  remainingMs: z.number().int(),
  /** Seconds the page reported the section visible / hidden when it was finished; null until then. */
  visibleSeconds: z.number().nullable(),
  hiddenSeconds: z.number().nullable(),
});
export type SectionTiming = z.infer<typeof SectionTiming>;

export const JourneyChat = z.object({
  threadId: Id.nullable(),
  rounds: z.number().int(),
  chars: z.number().int(),
  points: z.number(),
  /** By the server's own count of rounds and points (chat-progress.ts). */
  complete: z.boolean(),
  /** Why the chat ended, if it did: a limit ends the chat step as completeness does. */
  closed: z.enum(CHAT_CLOSE_REASONS).nullable(),
});
export type JourneyChat = z.infer<typeof JourneyChat>;

/** Which steps the participant's records show as done. */
export const JourneyDone = z.object({
  consent: z.boolean(),
  entry: z.boolean(),
  baseline: z.boolean(),
  preSurvey: z.boolean(),
  assignment: z.boolean(),
  /** Every section finished no sooner than its minimum on the server's clock. */
  sections: z.boolean(),
  /** The chat complete by the server's count, or ended by a limit. */
  chat: z.boolean(),
  postSurvey: z.boolean(),
  completion: z.boolean(),
});
export type JourneyDone = z.infer<typeof JourneyDone>;

/** The participant's journey in one experiment as the server records it: the browser's one read. */
export const Journey = z.object({
  experimentId: Id,
  /** The one step at which the server accepts the participant's next write. */
  step: JourneyStep,
  /** The section being read while the step is 'sections'; null otherwise. */
  currentSection: z.number().int().nullable(),
  done: JourneyDone,
  /** The entry choice by its role (ENTRY_CHOICE_NAMES), whatever value the study stores for it. */
  entryChoice: z.enum([ENTRY_CHOICE_NAMES.exit, ENTRY_CHOICE_NAMES.continue]).nullable(),
  /** Baseline intention 1-7, or null before it is answered. */
  baselineIntention: z.number().int().nullable(),
  condition: Condition.nullable(),
  /** The pathway recorded, or the one whose completion step the participant has reached; else null. */
  pathway: Pathway.nullable(),
  completion: CompletionStatus,
  /** The condition's sections in order (empty before a condition is assigned). */
  sections: z.array(SectionTiming),
  chat: JourneyChat,
  /** The server's clock when this was read. */
  serverTime: Timestamp,
});
export type Journey = z.infer<typeof Journey>;

export const SectionBody = z.object({
  experimentId: Id,
  sectionIndex: z.number().int().min(0).max(SECTION_INDEX_MAX),
});
const ReportedSeconds = z.number().min(0).max(SECTION_SECONDS_MAX);
export const FinishSectionBody = SectionBody.extend({
  /** Seconds the page was visible while this section was shown (the countdown runs only then). */
  visibleSeconds: ReportedSeconds,
  /** Seconds the page was hidden (another tab or app) while this section was shown. */
  hiddenSeconds: ReportedSeconds,
});
export type FinishSectionBody = z.infer<typeof FinishSectionBody>;
export const SectionReply = z.object({
  section: SectionTiming,
  serverTime: Timestamp,
  /** Finishing a section opens the next one in the same write: its timing (absent after the last section). */
  next: SectionTiming.optional(),
  /** After the last section's finish, the journey (now at the chat), so the chat page's guard need not read it. */
  journey: Journey.optional(),
});
export type SectionReply = z.infer<typeof SectionReply>;

export const journeyRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/participants/journey/:experimentId',
    params: z.object({ experimentId: Id }),
    reply: Journey,
  }),
  /** Opens a section (idempotent): allowed only when every earlier section is finished. */
  openSection: defineRoute({
    method: 'POST',
    path: '/api/participants/sections/open',
    body: SectionBody,
    reply: SectionReply,
  }),
  /** Finishes an opened section: 409 SECTION_TOO_EARLY until its minimum has passed on the server's clock. */
  finishSection: defineRoute({
    method: 'POST',
    path: '/api/participants/sections/finish',
    body: FinishSectionBody,
    reply: SectionReply,
  }),
};
