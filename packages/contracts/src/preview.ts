import { z } from 'zod';
import { defineRoute } from './route.js';
import { Condition, Id, IdParams, Timestamp } from './common.js';
import { LoginResult } from './auth.js';
import { LineText } from './text.js';

// "Preview as participant" (issue 14, docs/decisions/0045): an admin creates a test participant in an
// experiment with a chosen condition (not drawn from the randomisation), flagged as a test run, and gets a
// one-time link that signs a fresh browser (a private window) in as that participant.

/** Minutes a preview link stays valid. */
export const PREVIEW_LINK_MINUTES = 30;

export const CreatePreviewBody = z.object({ condition: Condition }).strict();

export const PreviewLink = z.object({
  assignment_id: Id,
  user_id: Id,
  condition: Condition,
  /** The test participant's Prolific-style id (starts with PREVIEW-). */
  prolific_pid: z.string(),
  /** The link's path: `/preview#<token>` (the token stays out of server logs and Referer headers). */
  path: z.string(),
  expires_at: Timestamp,
});
export type PreviewLink = z.infer<typeof PreviewLink>;

export const RedeemPreviewBody = z.object({ token: LineText.min(1).max(200) }).strict();

export const RedeemPreviewReply = LoginResult.extend({ experiment_id: Id, prolific_pid: z.string() });
export type RedeemPreviewReply = z.infer<typeof RedeemPreviewReply>;

export const previewRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/previews',
    params: IdParams,
    body: CreatePreviewBody,
    reply: PreviewLink,
    status: 201,
  }),
  redeem: defineRoute({
    method: 'POST',
    path: '/api/preview/redeem',
    body: RedeemPreviewBody,
    reply: RedeemPreviewReply,
  }),
};
