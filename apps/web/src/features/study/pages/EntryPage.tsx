import { useState } from 'react';
import { useNavigate } from '../../../lib/router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';
import { currentUser } from '../../../lib/session';
import { answer, complete } from '../participant-store';
import { readSession, setFlag, writeSession } from '../study-storage';
import { bestEffort } from '../with-retry';
import { useStudy } from '../study-context';

/** The entry choice by its role; the value stored is the study's (entry.values). */
type Choice = 'continue' | 'exit';

/** `/entry`: the appointment reminder and the two entry choices (spec section 4). */
export function EntryPage() {
  const study = useStudy();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<Choice | null>(null);
  const { entry } = study;

  async function choose(choice: Choice) {
    if (busy) return;
    setBusy(choice);
    const experimentId = readSession('EXPERIMENT_ID');
    const userId = currentUser()?.userId;
    if (experimentId && userId) {
      // Entry survey failures are only logged and the flow continues (spec section 8).
      await bestEffort('entry survey', () =>
        answer({
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: readSession('PROLIFIC_PID'),
          survey_type: 'entry',
          responses: { [entry.key]: entry.values[choice] },
        }),
      );
    }
    setFlag('entrySubmitted');
    writeSession('clicked_questions', choice === 'continue' ? '1' : '0');
    if (choice === 'continue') {
      navigate('/baseline-intention', { replace: true });
      return;
    }
    if (experimentId) await bestEffort('completion (confirm)', () => complete(experimentId, 'confirm'));
    navigate('/completion', { replace: true, state: { pathway: 'confirm' } });
  }

  return (
    <StudyLayout title={entry.title}>
      <Card>
        <div className="space-y-3 text-base leading-relaxed text-slate-800 sm:text-lg">
          <p>{entry.scenario[0]}</p>
          {entry.reminder && (
            <blockquote className="rounded-lg border-l-4 border-brand-500 bg-brand-50 px-4 py-3 text-slate-900">
              {entry.reminder}
            </blockquote>
          )}
          {entry.scenario.slice(1).map((text) => (
            <p key={text} className="font-semibold text-slate-900">
              {text}
            </p>
          ))}
        </div>
        <div className="mt-6 flex flex-col gap-3">
          <Button className="w-full" onClick={() => void choose('continue')} disabled={busy !== null}>
            {entry.questionsLabel}
          </Button>
          <Button variant="secondary" className="w-full" onClick={() => void choose('exit')} disabled={busy !== null}>
            {entry.confirmLabel}
          </Button>
        </div>
      </Card>
    </StudyLayout>
  );
}
