import { LIKERT_MAX, LIKERT_MIN, type SurveyQuestion } from '@studychat/contracts/web';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { LikertScale } from '../../../components/LikertScale';
import { StudyLayout } from '../../../components/StudyLayout';
import { ApiError } from '../../../lib/api';
import { PlacesTaken } from '../PlacesTaken';
import { currentUser } from '../../../lib/session';
import { ChoiceGroup } from '../ChoiceGroup';
import { isCondition, readSession, removeSession, setFlag, writeSession } from '../study-storage';
import { useStudy } from '../study-context';
import { bestEffort } from '../with-retry';
import { answer, assignCondition, join, refreshJourney } from '../participant-store';

/**
 * Randomisation needs the baseline on the server; an earlier baseline write that failed (only logged, per the
 * spec) is repeated here when the participation had to be created. The server keeps the first response.
 */
async function resubmitBaseline(userId: string, experimentId: string, key: string): Promise<void> {
  const intention = readSession('baselineIntention');
  if (!intention || !/^[1-6]$/.test(intention)) return;
  await bestEffort('baseline survey (repeat)', () =>
    answer({
      user_id: userId,
      experiment_id: experimentId,
      prolific_pid: readSession('PROLIFIC_PID'),
      survey_type: 'baseline',
      responses: { [key]: intention },
    }),
  );
}

/** One question of the pre-study survey, as the study declares it. */
function Question({
  question,
  value,
  onChange,
}: {
  question: SurveyQuestion;
  value: string | null;
  onChange: (value: string) => void;
}) {
  if (question.type === 'scale') {
    return (
      <LikertScale
        legend={question.wording}
        name={question.key}
        value={value === null ? null : Number(value)}
        onChange={(v) => onChange(String(v))}
        min={LIKERT_MIN}
        max={LIKERT_MAX}
        labels={question.labels ?? { min: '', mid: '', max: '' }}
        required={question.required}
      />
    );
  }
  const options = question.options ?? [];
  return (
    <ChoiceGroup
      legend={question.wording}
      name={question.key}
      options={options}
      value={value}
      onChange={onChange}
      columns={options.length > 4 ? 3 : 2}
      required={question.required}
    />
  );
}

/** `/pre-survey`: the study's pre-study questions (MMR: age, sex at birth, political leaning); then the condition. */
export function PreSurveyPage() {
  const navigate = useNavigate();
  const study = useStudy();
  const pre = study.pre;
  const { baseline } = study;
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  // Every place open to the participant was taken at the assignment (409 QUOTA_FULL): a page of its own.
  const [placesTaken, setPlacesTaken] = useState(false);
  const [busy, setBusy] = useState(false);
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const complete = pre.questions.every((q) => !q.required || answers[q.key] !== undefined);

  useEffect(() => {
    if (!doneFor) return;
    const timer = window.setTimeout(() => navigate(`/experiment/${doneFor}/static-intro`, { replace: true }), 1000);
    return () => window.clearTimeout(timer);
  }, [doneFor, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || doneFor) return;
    if (!complete) {
      setError('Please fill out all required fields (*) before submitting.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const experimentId = readSession('EXPERIMENT_ID');
      const userId = currentUser()?.userId;
      if (!experimentId || !userId) throw new Error('Submission or assignment failed. Please try again.');
      const submitPre = () =>
        answer({
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: readSession('PROLIFIC_PID'),
          survey_type: 'pre',
          responses: answers,
        });
      // The server accepts the pre-survey only from a participant it has, at this step (after the baseline), so
      // its success shows the assignment exists. Only its 404 (no participation) creates one (spec: "ensure an
      // assignment exists (create if not)"), repeats the baseline and sends the survey again (decision 0067).
      try {
        await submitPre();
      } catch (failure) {
        if (!(failure instanceof ApiError && failure.status === 404)) throw failure;
        await join(userId, experimentId);
        await resubmitBaseline(userId, experimentId, baseline.key);
        await submitPre();
      }
      const assignment = await assignCondition(experimentId);
      if (!isCondition(assignment.assigned_condition)) {
        throw new Error('Invalid response received from server when assigning condition.');
      }
      writeSession('assignedCondition', assignment.assigned_condition);
      setFlag('preSurveySubmitted');
      setDoneFor(experimentId);
    } catch (err) {
      removeSession('preSurveySubmitted');
      // The server has the participant at another step: its guard takes them there.
      const experimentId = readSession('EXPERIMENT_ID');
      if (err instanceof ApiError && err.code === 'STEP_OUT_OF_ORDER' && experimentId) {
        setBusy(false);
        await bestEffort('journey', () => refreshJourney(experimentId));
        return;
      }
      if (err instanceof ApiError && err.code === 'QUOTA_FULL') {
        setPlacesTaken(true);
        return;
      }
      setError(
        err instanceof Error && err.message ? err.message : 'Submission or assignment failed. Please try again.',
      );
      setBusy(false);
    }
  }

  if (placesTaken) return <PlacesTaken />;
  return (
    <StudyLayout title={pre.title}>
      <Card>
        <p className="text-slate-700">
          {pre.intro} Fields marked with <span className="text-red-700">*</span> are required.
        </p>
        <form noValidate onSubmit={(e) => void handleSubmit(e)} className="mt-6 space-y-7">
          {pre.questions.map((question) => (
            <Question
              key={question.key}
              question={question}
              value={answers[question.key] ?? null}
              onChange={(value) => setAnswers((current) => ({ ...current, [question.key]: value }))}
            />
          ))}
          {error && <Alert>{error}</Alert>}
          {doneFor && <Alert tone="success">Thank you! Redirecting...</Alert>}
          <Button type="submit" block disabled={!complete || busy || doneFor !== null}>
            {busy && !doneFor ? 'Submitting...' : 'Submit Survey'}
          </Button>
        </form>
      </Card>
    </StudyLayout>
  );
}
