import { endpoints, studyDefinition } from '@studychat/contracts/web';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyLayout } from '../../../components/StudyLayout';
import { api } from '../../../lib/api';
import { ContentBlocks } from '../ContentBlocks';
import { readStudySession, setFlag } from '../study-storage';
import { bestEffort, withRetry } from '../with-retry';
import {
  canAdvance,
  progressPercent,
  readProgress,
  remainingSeconds,
  sectionSeconds,
  sectionStartTime,
  writeProgress,
  type StaticProgress,
} from './static-progress';
import { useScrolledToBottom } from './use-scrolled-to-bottom';

/** `/experiment/:experimentId/static`: four timed sections; all complete leads to the chat. */
export function StaticPage() {
  const navigate = useNavigate();
  const { experimentId = '' } = useParams();
  const condition = readStudySession().assignedCondition ?? 'control';
  const sections = studyDefinition.conditions[condition].sections;
  const [progress, setProgress] = useState<StaticProgress>(() => readProgress(experimentId, sections.length));
  const index = progress.currentSection;
  const section = sections[index];
  const completed = progress.sectionStatus[index] === true;
  const [startedAt, setStartedAt] = useState(() => sectionStartTime(experimentId, index, Date.now()));
  const [now, setNow] = useState(() => Date.now());
  const contentEnd = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const scrolled = useScrolledToBottom(contentEnd, index);
  const [busy, setBusy] = useState(false);

  const minSeconds = section ? sectionSeconds(section) : 0;
  const remaining = remainingSeconds(minSeconds, startedAt, now, completed);

  useEffect(() => {
    if (remaining === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [remaining]);

  if (!section) return null;
  const isLast = index === sections.length - 1;
  const enabled = canAdvance(remaining, scrolled) && !busy;

  async function handleNext() {
    if (!enabled) return;
    setBusy(true);
    const finishedAt = Date.now();
    const sectionStatus = progress.sectionStatus.map((done, i) => done || i === index);
    // The exposure record must never hold the participant up: one retry, then only logged.
    const secondsOnScreen = Math.round((finishedAt - startedAt) / 100) / 10;
    void bestEffort('section exposure', () =>
      withRetry(() =>
        api(endpoints.participants.exposure, { body: { experimentId, sectionIndex: index, secondsOnScreen } }),
      ),
    );
    if (isLast) {
      writeProgress(experimentId, { currentSection: index, sectionStatus });
      setFlag('staticContentReviewed');
      navigate(`/experiment/${experimentId}/chat`, { replace: true });
      return;
    }
    const next = { currentSection: index + 1, sectionStatus };
    writeProgress(experimentId, next);
    setProgress(next);
    setStartedAt(sectionStartTime(experimentId, index + 1, finishedAt));
    setNow(finishedAt);
    setBusy(false);
    window.scrollTo({ top: 0 });
    heading.current?.focus();
  }

  const percent = progressPercent(progress.sectionStatus);
  return (
    <StudyLayout wide>
      <div className="mb-5">
        <div className="flex items-center justify-between gap-3">
          <p className="text-sm font-medium text-slate-700">
            Section {index + 1} of {sections.length}
            {remaining > 0 && (
              <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 font-semibold text-brand-900 tabular-nums">
                {`${Math.floor(remaining / 60)}:${String(remaining % 60).padStart(2, '0')}`}
              </span>
            )}
          </p>
          <ol className="flex gap-2" aria-label={`Sections reviewed: ${percent}%`}>
            {sections.map((s, i) => {
              const done = progress.sectionStatus[i] === true;
              return (
                <li key={s.id}>
                  <span
                    className={`block size-3 rounded-full ${done ? 'bg-brand-600' : i === index ? 'bg-white ring-2 ring-brand-600' : 'bg-slate-300'}`}
                  />
                  <span className="sr-only">
                    {`Section ${i + 1}: ${done ? 'reviewed' : i === index ? 'current' : 'not yet reviewed'}`}
                  </span>
                </li>
              );
            })}
          </ol>
        </div>
        <div
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-label="Sections reviewed"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <Card>
        <h1
          ref={heading}
          tabIndex={-1}
          className="mb-4 text-2xl font-bold text-slate-900 focus:outline-none sm:text-3xl"
        >
          {section.title}
        </h1>
        <ContentBlocks blocks={section.blocks} />
        <div ref={contentEnd} />
      </Card>
      <div className="mt-4 flex flex-col items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700 sm:text-base">
          {remaining > 0
            ? `Please take your time to read this section. You can continue in ${remaining} second${remaining === 1 ? '' : 's'}.`
            : scrolled
              ? 'Thank you for reading. You can continue when you are ready.'
              : 'Please scroll to the end of the section to continue.'}
        </p>
        <Button onClick={() => void handleNext()} disabled={!enabled} className="sm:min-w-40">
          {isLast ? 'Complete' : 'Next Section'}
        </Button>
      </div>
      <p className="sr-only" aria-live="polite">
        {enabled ? `You can now select ${isLast ? 'Complete' : 'Next Section'}.` : ''}
      </p>
    </StudyLayout>
  );
}
