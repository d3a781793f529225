import { QUOTA_FULL_TEXT } from '@studychat/contracts/web';
import { Card } from '../../components/Card';
import { StudyLayout } from '../../components/StudyLayout';

/** The title of the page a participant sees when every place open to them was taken at their assignment. */
export const PLACES_TAKEN_TITLE = 'All places in this study are taken.';

/**
 * What a participant reads when the assignment finds every place open to them taken (409 QUOTA_FULL, issue 34):
 * a page of its own that says so and what to do, with no button that would only be refused again.
 */
export function PlacesTaken() {
  return (
    <StudyLayout title={PLACES_TAKEN_TITLE}>
      <Card>
        <p className="text-slate-700" data-testid="places-taken">
          {QUOTA_FULL_TEXT}
        </p>
      </Card>
    </StudyLayout>
  );
}
