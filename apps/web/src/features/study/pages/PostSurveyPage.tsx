import { LIKERT_MAX, LIKERT_MIN, endpoints } from '@studychat/contracts/web';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { LikertScale } from '../../../components/LikertScale';
import { StudyLayout } from '../../../components/StudyLayout';
import { api } from '../../../lib/api';
import { currentUser } from '../../../lib/session';
import { answer, complete } from '../participant-store';
import { readSession, setFlag } from '../study-storage';
import { bestEffort, withRetry } from '../with-retry';
import { useStudy } from '../study-context';

const RETRY_DELAY_MS = 1000;

function missingIdsMessage(userId: string | undefined, experimentId: string | null): string | null {
  if (userId && experimentId) return null;
  return `Configuration error: ${userId ? '' : 'Missing participant ID. '}${experimentId ? '' : 'Missing experiment ID. '}Cannot proceed.`;
}

/**
 * `/post-survey`: the final intention question. The answer is stored on the server (retried) before
 * the completion code is fetched and completion recorded; a failed write is reported, never dropped.
 */
export function PostSurveyPage() {
  const study = useStudy();
  const navigate = useNavigate();
  const [value, setValue] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const userId = currentUser()?.userId;
  const experimentId = readSession('EXPERIMENT_ID');
  const configError = missingIdsMessage(userId, experimentId);
  const { post, baseline } = study;

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(
      () => navigate('/completion', { replace: true, state: { pathway: 'complete' } }),
      1000,
    );
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || done) return;
    if (value === null) {
      setError('Please answer all required questions (*) before submitting.');
      return;
    }
    if (!userId || !experimentId) {
      setError('Could not identify participant or experiment. Please refresh and try again.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Two retries, spaced out to ride over a brief outage: this answer is the study's outcome measure.
      await answer(
        {
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: readSession('PROLIFIC_PID'),
          survey_type: 'post',
          responses: { [post.key]: value },
        },
        2,
        RETRY_DELAY_MS,
      );
    } catch (err) {
      setError(
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred while submitting the survey.',
      );
      setBusy(false);
      return;
    }
    await bestEffort('completion code', () =>
      withRetry(() =>
        api(endpoints.experiments.completionCode, { params: { id: experimentId }, query: { pathway: 'complete' } }),
      ),
    );
    await bestEffort('completion (complete)', () => complete(experimentId, 'complete'));
    setFlag('postSurveySubmitted');
    setFlag('experimentCompleted');
    setDone(true);
  }

  return (
    <StudyLayout title={post.title}>
      {configError ? (
        <Alert>{configError}</Alert>
      ) : (
        <Card>
          <form noValidate onSubmit={(e) => void handleSubmit(e)}>
            <LikertScale
              legend={post.question}
              name="post_intent"
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
            {done && (
              <Alert tone="success" className="mt-5">
                Thank you! Your responses have been recorded. Redirecting...
              </Alert>
            )}
            <div className="mt-6">
              <Button type="submit" block disabled={busy || done}>
                {busy && !done ? 'Saving...' : 'Finish'}
              </Button>
            </div>
          </form>
        </Card>
      )}
    </StudyLayout>
  );
}
