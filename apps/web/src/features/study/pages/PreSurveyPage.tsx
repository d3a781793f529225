import { AGE_GROUPS, POLITICAL_LEANINGS, SEXES, endpoints } from '@studychat/contracts/web';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';
import { api } from '../../../lib/api';
import { currentUser } from '../../../lib/session';
import { ChoiceGroup } from '../ChoiceGroup';
import { ensureAssignment, submitSurvey } from '../study-api';
import { isCondition, readSession, removeSession, setFlag, writeSession } from '../study-storage';
import { bestEffort, withRetry } from '../with-retry';

type Age = (typeof AGE_GROUPS)[number];
type Sex = (typeof SEXES)[number];
type Leaning = (typeof POLITICAL_LEANINGS)[number];

const AGE_OPTIONS = AGE_GROUPS.map((value) => ({ value, label: value }));
const SEX_LABELS: Record<Sex, string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  'prefer-not': 'Prefer not to say',
};
const LEANING_LABELS: Record<Leaning, string> = {
  liberal: 'Liberal',
  moderate: 'Moderate',
  conservative: 'Conservative',
  'prefer-not': 'Prefer not to say',
};

/**
 * Randomisation needs the baseline on the server; an earlier baseline write that failed (only
 * logged, per the spec) is repeated here. The server keeps the first response, so this is harmless.
 */
async function resubmitBaseline(userId: string, experimentId: string): Promise<void> {
  const intention = readSession('baselineIntention');
  if (!intention || !/^[1-6]$/.test(intention)) return;
  await bestEffort('baseline survey (repeat)', () =>
    submitSurvey({
      user_id: userId,
      experiment_id: experimentId,
      prolific_pid: readSession('PROLIFIC_PID'),
      survey_type: 'baseline',
      responses: { vaccination_intention: intention as '1' | '2' | '3' | '4' | '5' | '6' },
    }),
  );
}

/** `/pre-survey`: age, sex at birth and political leaning; then the condition is assigned. */
export function PreSurveyPage() {
  const navigate = useNavigate();
  const [age, setAge] = useState<Age | null>(null);
  const [sex, setSex] = useState<Sex | null>(null);
  const [leaning, setLeaning] = useState<Leaning | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [doneFor, setDoneFor] = useState<string | null>(null);

  useEffect(() => {
    if (!doneFor) return;
    const timer = window.setTimeout(() => navigate(`/experiment/${doneFor}/static-intro`, { replace: true }), 1000);
    return () => window.clearTimeout(timer);
  }, [doneFor, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || doneFor) return;
    if (!age || !sex || !leaning) {
      setError('Please fill out all required fields (*) before submitting.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const experimentId = readSession('EXPERIMENT_ID');
      const userId = currentUser()?.userId;
      if (!experimentId || !userId) throw new Error('Submission or assignment failed. Please try again.');
      await submitSurvey({
        user_id: userId,
        experiment_id: experimentId,
        prolific_pid: readSession('PROLIFIC_PID'),
        survey_type: 'pre',
        responses: { age, sex, political_leaning: leaning },
      });
      await ensureAssignment(userId, experimentId);
      await resubmitBaseline(userId, experimentId);
      const assignment = await withRetry(() => api(endpoints.participants.assignCondition, { body: { experimentId } }));
      if (!isCondition(assignment.assigned_condition)) {
        throw new Error('Invalid response received from server when assigning condition.');
      }
      writeSession('assignedCondition', assignment.assigned_condition);
      setFlag('preSurveySubmitted');
      setDoneFor(experimentId);
    } catch (err) {
      removeSession('preSurveySubmitted');
      setError(
        err instanceof Error && err.message ? err.message : 'Submission or assignment failed. Please try again.',
      );
      setBusy(false);
    }
  }

  const complete = age !== null && sex !== null && leaning !== null;
  return (
    <StudyLayout title="Pre-Study Survey">
      <Card>
        <p className="text-slate-700">
          Please answer these three questions. Fields marked with <span className="text-red-700">*</span> are required.
        </p>
        <form noValidate onSubmit={(e) => void handleSubmit(e)} className="mt-6 space-y-7">
          <ChoiceGroup
            legend="What is your age group?"
            name="age"
            options={AGE_OPTIONS}
            value={age}
            onChange={setAge}
            columns={3}
          />
          <ChoiceGroup
            legend="What was your sex at birth?"
            name="sex"
            options={SEXES.map((value) => ({ value, label: SEX_LABELS[value] }))}
            value={sex}
            onChange={setSex}
            columns={2}
          />
          <ChoiceGroup
            legend="How would you describe your political views?"
            name="political_leaning"
            options={POLITICAL_LEANINGS.map((value) => ({ value, label: LEANING_LABELS[value] }))}
            value={leaning}
            onChange={setLeaning}
            columns={2}
          />
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
