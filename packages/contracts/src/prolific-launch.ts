import { z } from 'zod';
import { defineRoute } from './route.js';
import { IdParams, Timestamp } from './common.js';
import { LineText } from './text.js';
import { PROLIFIC_SUBMISSION_STATUSES } from './constants.js';
import {
  CHECKLIST_ITEMS,
  LAUNCH_MINUTES_MAX,
  LAUNCH_PLACES_MAX,
  LAUNCH_REWARD_MAX,
  PROLIFIC_CODE_ACTIONS,
  PROLIFIC_DEVICES,
  PROLIFIC_PATHWAY_OUTCOMES,
} from './prolific-launch.constants.js';

// Launching an experiment on Prolific (issue 33 item 2, docs/decisions/0090-prolific-launch.md): a draft study
// made from the experiment, a checklist computed on the server, publishing once it passes, and reading the study's
// submissions back from Prolific page by page.

const PathwayKey = LineText.trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a pathway id');

export const ProlificPathwaySetting = z
  .object({
    pathway: PathwayKey,
    outcome: z.enum(PROLIFIC_PATHWAY_OUTCOMES),
    action: z.enum(PROLIFIC_CODE_ACTIONS),
  })
  .strict();
export type ProlificPathwaySetting = z.infer<typeof ProlificPathwaySetting>;

export const ProlificLaunchBody = z
  .object({
    /** The study's public title on Prolific; the experiment's name when left out. */
    title: LineText.trim().min(1, 'title cannot be empty').max(120).optional(),
    description: LineText.trim().max(2000).optional(),
    places: z
      .number({ error: 'places must be a number' })
      .int('places must be a whole number')
      .min(1, 'places must be at least 1')
      .max(LAUNCH_PLACES_MAX, `places must be at most ${LAUNCH_PLACES_MAX}`),
    rewardMinor: z
      .number({ error: 'rewardMinor must be a number' })
      .int('rewardMinor must be a whole number of pence or cents')
      .min(1, 'rewardMinor must be at least 1')
      .max(LAUNCH_REWARD_MAX, `rewardMinor must be at most ${LAUNCH_REWARD_MAX}`),
    estimatedMinutes: z
      .number({ error: 'estimatedMinutes must be a number' })
      .int('estimatedMinutes must be a whole number')
      .min(1, 'estimatedMinutes must be at least 1')
      .max(LAUNCH_MINUTES_MAX, `estimatedMinutes must be at most ${LAUNCH_MINUTES_MAX}`),
    devices: z
      .array(z.enum(PROLIFIC_DEVICES))
      .min(1, 'allow at least one device')
      .max(3)
      .refine((d) => new Set(d).size === d.length, 'a device is listed twice'),
    pathways: z.array(ProlificPathwaySetting).min(1, 'set each pathway').max(50),
    /** Prolific's workspace for the credentials pool; needed only when the experiment uses study logins. */
    workspaceId: LineText.trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, 'must be a Prolific id (letters and digits)')
      .optional(),
  })
  .strict();
export type ProlificLaunchBody = z.infer<typeof ProlificLaunchBody>;

export const ProlificLaunchState = z.enum(['creating', 'draft', 'publishing', 'published']);
export type ProlificLaunchState = z.infer<typeof ProlificLaunchState>;

export const ProlificLaunch = z.object({
  experimentId: z.string(),
  /** null before any launch. */
  state: ProlificLaunchState.nullable(),
  studyId: z.string().nullable(),
  /** The study URL Prolific sends participants to (with its three placeholders). */
  studyUrl: z.string().nullable(),
  /** Logins put in Prolific's credentials pool at launch (0 when participants join by the link alone). */
  credentials: z.number().int(),
  launchedAt: Timestamp.nullable(),
  publishedAt: Timestamp.nullable(),
});
export type ProlificLaunch = z.infer<typeof ProlificLaunch>;

export const ChecklistItem = z.object({
  key: z.enum(CHECKLIST_ITEMS),
  label: z.string(),
  ok: z.boolean(),
  /** What is the case, and when not ok, how to fix it. */
  detail: z.string(),
});
export type ChecklistItem = z.infer<typeof ChecklistItem>;
export const ProlificChecklist = z.object({
  ok: z.boolean(),
  items: z.array(ChecklistItem),
  /** The pathways the launch form must set, with their codes (null: not set). */
  pathways: z.array(z.object({ key: z.string(), label: z.string(), code: z.string().nullable() })),
  /** Whether participants join with a study login (a credentials pool) or by the link alone. */
  usesLogins: z.boolean(),
  launch: ProlificLaunch,
});
export type ProlificChecklist = z.infer<typeof ProlificChecklist>;

export const ProlificSyncReply = z.object({
  /** Submissions Prolific listed for the study. */
  read: z.number().int(),
  /** Stored on a participant (matched by PID and SESSION_ID). */
  matched: z.number().int(),
  unmatched: z.number().int(),
  /** Stored statuses per participant after the sync (this experiment's real participants). */
  counts: z.record(z.enum(PROLIFIC_SUBMISSION_STATUSES), z.number().int()),
  /** Study logins no one has used, and among the used ones those whose submission was returned or timed out. */
  spareLogins: z.object({ unused: z.number().int(), freed: z.number().int() }),
});
export type ProlificSyncReply = z.infer<typeof ProlificSyncReply>;

export const prolificLaunchRoutes = {
  checklist: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/prolific/checklist',
    params: IdParams,
    reply: ProlificChecklist,
  }),
  launch: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/launch',
    params: IdParams,
    body: ProlificLaunchBody,
    reply: ProlificLaunch,
  }),
  publish: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/publish',
    params: IdParams,
    reply: ProlificLaunch,
  }),
  sync: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/sync',
    params: IdParams,
    reply: ProlificSyncReply,
  }),
};
