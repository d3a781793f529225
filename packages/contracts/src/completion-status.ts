import { z } from 'zod';
import { Pathway } from './common.js';

/** Whether the participant's completion is recorded, with its pathway and code (its own file: journey.ts needs it). */
export const CompletionStatus = z.object({
  alreadyCompleted: z.boolean(),
  completionPathway: Pathway.nullable(),
  completionCode: z.string().nullable(),
});
export type CompletionStatus = z.infer<typeof CompletionStatus>;
