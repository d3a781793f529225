// Launching on Prolific (docs/decisions/0090-prolific-launch.md): the choices the launch form offers, without zod.

/** Devices Prolific lets a study allow (`device_compatibility`). */
export const PROLIFIC_DEVICES = ['desktop', 'mobile', 'tablet'] as const;
/** What happens when a participant's submission is completed with a pathway's code (Prolific's code actions). */
export const PROLIFIC_CODE_ACTIONS = ['AUTOMATICALLY_APPROVE', 'MANUALLY_REVIEW'] as const;
/** completed: Prolific's COMPLETED code type; screened_out: its own code (type OTHER), never counted as complete. */
export const PROLIFIC_PATHWAY_OUTCOMES = ['completed', 'screened_out'] as const;

export const LAUNCH_PLACES_MAX = 10_000;
/** Pence or cents per participant (Prolific's `reward` is an integer in the account's currency's minor unit). */
export const LAUNCH_REWARD_MAX = 100_000;
export const LAUNCH_MINUTES_MAX = 600;

/** The checklist's items, in the order the page shows them. */
export const CHECKLIST_ITEMS = ['connection', 'open', 'codes', 'model', 'preview', 'budget', 'draft'] as const;
