import { CODE_KEYS, type CodeKey, type Experiment } from '@studychat/contracts/web';

export interface EditForm {
  name: string;
  description: string;
  codes: Record<CodeKey, string>;
}

export interface EditChanges {
  /** Body for PUT /experiments/:id, only when the name or description changed. */
  details?: { name?: string; description?: string | null };
  /** Body for PUT /experiments/:id/completion-codes, only with changed, non-empty trimmed codes. */
  codes?: Partial<Record<CodeKey, string>>;
}

/** The form's starting values for an experiment. */
export function editFormFrom(experiment: Experiment): EditForm {
  return {
    name: experiment.name,
    description: experiment.description ?? '',
    codes: {
      complete: experiment.completion_codes.complete ?? '',
      exitnoqualms: experiment.completion_codes.exitnoqualms ?? '',
      exitceiling: experiment.completion_codes.exitceiling ?? '',
    },
  };
}

/**
 * What to send (spec section 4, Admin edit): only a changed name or description; only changed,
 * non-empty trimmed codes (an emptied code field is never sent, so it cannot clear a code).
 */
export function computeEditChanges(experiment: Experiment, form: EditForm): EditChanges {
  const changes: EditChanges = {};
  const details: NonNullable<EditChanges['details']> = {};
  const name = form.name.trim();
  if (name !== experiment.name) details.name = name;
  const description = form.description.trim();
  if (description !== (experiment.description ?? '').trim())
    details.description = description === '' ? null : description;
  if (Object.keys(details).length > 0) changes.details = details;

  const codes: Partial<Record<CodeKey, string>> = {};
  for (const key of CODE_KEYS) {
    const value = form.codes[key].trim();
    if (value !== '' && value !== experiment.completion_codes[key]) codes[key] = value;
  }
  if (Object.keys(codes).length > 0) changes.codes = codes;
  return changes;
}
