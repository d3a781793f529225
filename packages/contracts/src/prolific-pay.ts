import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { FreeText, LineText } from './text.js';
import {
  PATHWAYS,
  PROLIFIC_BONUS_STATUSES,
  PROLIFIC_REJECTION_CATEGORIES,
  PROLIFIC_REJECT_MESSAGE_MAX,
  PROLIFIC_REJECT_MESSAGE_MIN,
} from './constants.js';
import { ProlificId } from './prolific.js';

// Review and pay on Prolific (issue 33 part 6, docs/decisions/0089-prolific-reject-and-bonuses.md): rejecting
// submissions with Prolific's categories and a message, and bonuses through our own ledger, set up and paid once per
// idempotency key.

/** Reject these participants' submissions; `confirm` says the researcher confirmed (the page asks first). */
export const ProlificRejectBody = z
  .object({
    prolificPids: z
      .array(ProlificId)
      .min(1, 'Name at least one participant')
      .max(200)
      .refine((ids) => new Set(ids).size === ids.length, 'A Prolific id is listed twice'),
    category: z.enum(PROLIFIC_REJECTION_CATEGORIES),
    message: FreeText.trim()
      .min(PROLIFIC_REJECT_MESSAGE_MIN, `must be at least ${PROLIFIC_REJECT_MESSAGE_MIN} characters (Prolific's rule)`)
      .max(PROLIFIC_REJECT_MESSAGE_MAX),
    confirm: z.literal(true, 'Confirm the rejection first'),
  })
  .strict();
export type ProlificRejectBody = z.infer<typeof ProlificRejectBody>;
export const ProlificRejectReply = z.object({
  /** The Prolific ids whose submissions Prolific rejected. */
  rejected: z.array(z.string()),
  /** Those Prolific did not take (they still await review), with why. */
  failed: z.array(z.object({ prolificPid: z.string(), error: z.string() })),
});
export type ProlificRejectReply = z.infer<typeof ProlificRejectReply>;

/** A bonus amount as the researcher types it, in the study's currency: "0.50", "2", "1.5". */
export const BonusAmount = LineText.trim().regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be an amount such as 0.50');

export const BonusSource = z.discriminatedUnion('kind', [
  /** Every participant of the experiment who finished on the pathway gets the amount. */
  z.object({ kind: z.literal('rule'), pathway: z.enum(PATHWAYS), amount: BonusAmount }).strict(),
  /** Lines of `<Prolific id>,<amount>`, as Prolific's own bonus upload. */
  z.object({ kind: z.literal('csv'), csv: FreeText.max(200_000) }).strict(),
]);
export type BonusSource = z.infer<typeof BonusSource>;

export const PrepareBonusBody = z
  .object({
    /** Made once by the page per prepared batch: the same key never makes a second batch. */
    idempotencyKey: LineText.regex(/^[A-Za-z0-9_-]{8,100}$/, 'must be 8 to 100 letters, digits, - or _'),
    reason: LineText.trim().min(1, 'Say why the bonus is paid').max(300),
    source: BonusSource,
  })
  .strict();
export type PrepareBonusBody = z.infer<typeof PrepareBonusBody>;

export const PayBonusBody = z
  .object({
    /** Pay although some Prolific ids already have a bonus in another batch. */
    confirmRepeats: z.boolean().optional(),
    /** The last pay call's outcome was unknown and the researcher checked on Prolific that nothing was paid. */
    confirmNotPaid: z.boolean().optional(),
  })
  .strict();
export type PayBonusBody = z.infer<typeof PayBonusBody>;

export const BonusLine = z.object({
  prolificPid: z.string(),
  amountCents: z.number().int(),
  /** As sent to Prolific: "0.50". */
  amount: z.string(),
  /** This Prolific id has a bonus in another batch of this experiment (not a failed set-up). */
  alreadyBonused: z.boolean(),
});
export const BonusBatch = z.object({
  id: Id,
  experimentId: Id,
  idempotencyKey: z.string(),
  source: z.enum(['rule', 'csv']),
  reason: z.string(),
  status: z.enum(PROLIFIC_BONUS_STATUSES),
  totalCents: z.number().int(),
  total: z.string(),
  lines: z.array(BonusLine),
  prolificBulkId: z.string().nullable(),
  /** What Prolific said the set-up costs (fees, and the total with them) as it answers them: in minor units (pence). */
  prolificFees: z.string().nullable(),
  prolificTotal: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  paidAt: Timestamp.nullable(),
});
export type BonusBatch = z.infer<typeof BonusBatch>;
export const BonusBatchList = z.object({ batches: z.array(BonusBatch) });
export type BonusBatchList = z.infer<typeof BonusBatchList>;

export const BonusBatchParams = z.object({ id: Id, batchId: Id });

export const prolificPayRoutes = {
  reject: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/reject',
    params: IdParams,
    body: ProlificRejectBody,
    reply: ProlificRejectReply,
  }),
  bonuses: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/prolific/bonuses',
    params: IdParams,
    reply: BonusBatchList,
  }),
  prepareBonus: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/bonuses',
    params: IdParams,
    body: PrepareBonusBody,
    reply: BonusBatch,
  }),
  payBonus: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/bonuses/:batchId/pay',
    params: BonusBatchParams,
    body: PayBonusBody,
    reply: BonusBatch,
  }),
};
