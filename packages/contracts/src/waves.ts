import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { LineText } from './text.js';

// Follow-up waves (issue 33, docs/decisions/0091-follow-up-waves.md): a wave-2 experiment follows a wave-1
// experiment, so its landing admits only Prolific ids that finished wave 1, and its data package joins the waves by
// Prolific id; a Prolific participant group made from wave 1's chosen completers lets Prolific show wave 2 to them.

export const WaveSetting = z.object({
  /** The experiment this one follows (its wave 1), or null. */
  follows: z.object({ id: Id, name: z.string() }).nullable(),
  /** The experiments that follow this one (its next waves) that the caller may see. */
  followedBy: z.array(z.object({ id: Id, name: z.string() })),
  /** Whether the setting can still change: not once real participants have joined. */
  locked: z.boolean(),
});
export type WaveSetting = z.infer<typeof WaveSetting>;

export const SetWaveBody = z.object({ follows_experiment_id: Id.nullable() }).strict();

const PathwayIdText = LineText.trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a pathway id');

/** A Prolific participant group of the completers of chosen pathways (made once, then added to). */
export const ParticipantGroupBody = z
  .object({
    name: LineText.trim().min(1, 'Give the group a name').max(100, 'at most 100 characters'),
    /** The Prolific workspace the group belongs to (Prolific requires one). */
    workspace_id: LineText.trim().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a Prolific workspace id (letters and digits)'),
    pathways: z.array(PathwayIdText).min(1, 'Choose at least one pathway').max(20),
  })
  .strict();

export const ParticipantGroup = z.object({
  /** Prolific's id of the group; null while it is being made. */
  groupId: z.string().nullable(),
  name: z.string(),
  workspaceId: z.string(),
  /** How many Prolific ids were sent to the group so far. */
  participants: z.number().int(),
  updatedAt: Timestamp,
});
export type ParticipantGroup = z.infer<typeof ParticipantGroup>;
export const ParticipantGroupReply = z.object({ group: ParticipantGroup.nullable() });
export type ParticipantGroupReply = z.infer<typeof ParticipantGroupReply>;
export const ParticipantGroupResult = z.object({ group: ParticipantGroup, added: z.number().int() });
export type ParticipantGroupResult = z.infer<typeof ParticipantGroupResult>;

export const waveRoutes = {
  setting: defineRoute({ method: 'GET', path: '/api/experiments/:id/wave', params: IdParams, reply: WaveSetting }),
  setSetting: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/wave',
    params: IdParams,
    body: SetWaveBody,
    reply: WaveSetting,
  }),
  group: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/prolific/participant-group',
    params: IdParams,
    reply: ParticipantGroupReply,
  }),
  makeGroup: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/participant-group',
    params: IdParams,
    body: ParticipantGroupBody,
    reply: ParticipantGroupResult,
  }),
};
