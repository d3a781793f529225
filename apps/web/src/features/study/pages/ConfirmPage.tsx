import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';

/** `/confirm`: kept for completeness; the flows of spec section 4 do not link to it. */
export function ConfirmPage() {
  return (
    <StudyLayout title="Thank you for confirming!">
      <Card>
        <p className="text-base leading-relaxed text-slate-800 sm:text-lg">
          Please complete a few short follow-up questions to finish the study.
        </p>
      </Card>
    </StudyLayout>
  );
}
