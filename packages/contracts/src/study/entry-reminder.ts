// The reminder the entry and baseline pages quote (docs/decisions/0062). It was positional, "the scenario's second
// paragraph"; it is now the entry's own `reminder`. A definition written before (stored, or sent without it)
// keeps what it showed: its second scenario paragraph becomes the reminder and leaves the scenario, so the pages
// show the same paragraphs in the same places. Plain code (no zod): the schema and the stored-version upgrade
// both use it.

/** The entry texts with the reminder as its own field; `null` when there is no second paragraph to take. */
export function withReminder<E extends { scenario: string[]; reminder?: string | undefined }>(
  entry: E,
): (E & { reminder: string }) | null {
  if (entry.reminder !== undefined) return { ...entry, reminder: entry.reminder };
  const [first, quoted, ...rest] = entry.scenario;
  if (first === undefined || quoted === undefined) return null;
  return { ...entry, scenario: [first, ...rest], reminder: quoted };
}
