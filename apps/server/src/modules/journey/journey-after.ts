import type { Journey } from '@studychat/contracts';
import type { AssignmentRow, SectionViewRow } from '../../db/schema.js';
import type { JourneyFactRows } from './journey-facts.repository.js';

// The journey a write hands to the next page (docs/decisions/0068, 0070): the facts the gate read under the
// participant's lock with the write's own changes, so the reply needs no read after the commit.

/** One change a journey write made to the facts the journey is read from. */
export type FactChange =
  { assignment: AssignmentRow } | { survey: { survey_type: string; responses: string } } | { view: SectionViewRow };

/** The facts with a write's changes, as the facts read would return them once it has committed. */
export function withChanges(rows: JourneyFactRows, changes: readonly FactChange[]): JourneyFactRows {
  const next: JourneyFactRows = { ...rows, surveys: [...rows.surveys], views: [...rows.views] };
  for (const change of changes) {
    if ('assignment' in change) next.assignment = change.assignment;
    else if ('survey' in change) next.surveys.push(change.survey);
    else {
      next.views = next.views.filter((v) => v.id !== change.view.id);
      next.views.push(change.view);
      next.views.sort((a, b) => a.section_index - b.section_index);
    }
  }
  return next;
}

/**
 * Asked of a journey write by a route whose reply carries the journey after it (docs/decisions/0068): the
 * gate fills it once the write has committed, from the facts it read under the participant's lock and the
 * write's own changes (0070), so the reply needs no second read. A repeat changes nothing: its journey is
 * the facts as read.
 */
export class JourneyAfter {
  private make: (() => Journey) | undefined;

  /** Made when asked: a route that turns out not to need it (a finish that opened the next section) pays nothing. */
  set(make: () => Journey): void {
    this.make = make;
  }

  /** The journey after the write; only after a write that was done (a refusal throws before). */
  get journey(): Journey {
    if (!this.make) throw new Error('the journey write did not hand over its journey');
    return this.make();
  }
}
