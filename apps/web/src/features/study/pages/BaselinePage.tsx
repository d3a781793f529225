import { LIKERT_MAX, LIKERT_MIN } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { LikertScale } from '../../../components/LikertScale';
import { StudyLayout } from '../../../components/StudyLayout';
import { currentUser } from '../../../lib/session';
import { answer, complete } from '../participant-store';
import { readSession, setFlag, writeSession } from '../study-storage';
import { bestEffort } from '../with-retry';
import { useStudy } from '../study-context';

/** `/baseline-intention`: the reminder and the 7-point intention question. 7 ends the study (ceiling). */
export function BaselinePage() {
  const study = useStudy();
  const navigate = useNavigate();
  const [value, setValue] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { entry, baseline } = study;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (value === null) {
      setError('Please select a value before continuing.');
      return;
    }
    setBusy(true);
    const intention = String(value);
    writeSession('baselineIntention', intention);
    const experimentId = readSession('EXPERIMENT_ID');
    const userId = currentUser()?.userId;
    if (experimentId && userId) {
      // Baseline survey failures are only logged and the flow continues (spec section 8).
      await bestEffort('baseline survey', () =>
        answer({
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: readSession('PROLIFIC_PID'),
          survey_type: 'baseline',
          responses: { [baseline.key]: intention },
        }),
      );
    }
    setFlag('baselineSubmitted');
    if (value === LIKERT_MAX) {
      if (experimentId) await bestEffort('completion (ceiling)', () => complete(experimentId, 'ceiling'));
      navigate('/completion', { replace: true, state: { pathway: 'ceiling' } });
      return;
    }
    navigate('/pre-survey', { replace: true });
  }

  return (
    <StudyLayout title={entry.title}>
      <Card>
        {entry.reminder && (
          <blockquote className="rounded-lg border-l-4 border-brand-500 bg-brand-50 px-4 py-3 text-base leading-relaxed text-slate-900 sm:text-lg">
            {entry.reminder}
          </blockquote>
        )}
        <form noValidate onSubmit={(e) => void handleSubmit(e)} className="mt-6">
          <LikertScale
            legend={baseline.question}
            name={baseline.key}
            value={value}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
            min={LIKERT_MIN}
            max={LIKERT_MAX}
            labels={baseline.labels}
            required
          />
          {error && <Alert className="mt-5">{error}</Alert>}
          <div className="mt-6">
            <Button type="submit" block disabled={value === null || busy}>
              Continue
            </Button>
          </div>
        </form>
      </Card>
    </StudyLayout>
  );
}
