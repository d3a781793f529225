import { sectionMinSeconds, type SectionReply } from '@studychat/contracts/web';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { StudyLayout } from '../../../components/StudyLayout';
import { ApiError } from '../../../lib/api';
import { ContentBlocks } from '../ContentBlocks';
import { readStudySession, setFlag } from '../study-storage';
import { readSectionClock, reportedSeconds, startClock, writeSectionClock, type SectionClock } from './section-clock';
import {
  canAdvance,
  progressFromJourney,
  progressPercent,
  readProgress,
  writeProgress,
  writeSectionStart,
  type StaticProgress,
} from './static-progress';
import { useScrolledToBottom } from './use-scrolled-to-bottom';
import { useVisibleCountdown } from './use-visible-countdown';
import { useStudy } from '../study-context';
import { conditionContent } from '../condition-content';
import { finishSection, openSection, refreshJourney, useParticipant } from '../participant-store';

const SAVE_FAILED = 'Your progress could not be saved. Please check your connection and try again.';

/**
 * `/experiment/:experimentId/static`: four timed sections; all complete leads to the chat. The server opens
 * and finishes each section on its clock (the same section and time on any device); the countdown on the
 * page runs only while the page is visible.
 */
export function StaticPage() {
  const study = useStudy();
  const navigate = useNavigate();
  const { experimentId = '' } = useParams();
  const { journey } = useParticipant();
  // The server has the participant elsewhere: read where, and the guard takes them there.
  const refresh = useCallback(() => {
    refreshJourney(experimentId).catch((error: unknown) => console.warn('journey read failed', error));
  }, [experimentId]);
  const condition = journey?.condition ?? readStudySession().assignedCondition;
  const sections = conditionContent(study, condition).sections;
  const fromServer = () =>
    journey?.step === 'sections'
      ? progressFromJourney(journey, sections.length)
      : readProgress(experimentId, sections.length);
  const [progress, setProgress] = useState<StaticProgress>(fromServer);
  // A journey read again (after a refusal) moves the page to the server's section.
  const [seenJourney, setSeenJourney] = useState(journey);
  if (journey !== seenJourney) {
    setSeenJourney(journey);
    setProgress(fromServer());
  }
  const index = progress.currentSection;
  const section = sections[index];
  const [start, setStart] = useState<{ index: number; clock: SectionClock; opened: boolean } | null>(null);
  const contentEnd = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const scrolled = useScrolledToBottom(contentEnd, index);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const openedByFinish = useRef<SectionReply | null>(null);
  const save = useCallback(
    (clock: SectionClock) => writeSectionClock(experimentId, index, clock),
    [experimentId, index],
  );
  const current = start?.index === index ? start : null;
  const countdown = useVisibleCountdown(current?.clock ?? null, save);
  const minMs = section ? sectionMinSeconds(section) * 1000 : 0;
  const fallbackMs = journey?.sections[index]?.remainingMs ?? minMs;

  useEffect(() => writeProgress(experimentId, progress), [experimentId, progress]);

  // Opening is idempotent: a reload or another device gets the first opening and the time left since. The
  // finish of the section before opens this one on the server and hands its timing over: no request then.
  useEffect(() => {
    let live = true;
    const handed = openedByFinish.current;
    openedByFinish.current = null;
    const opened =
      handed?.next?.index === index
        ? Promise.resolve({ section: handed.next, serverTime: handed.serverTime })
        : openSection(experimentId, index);
    opened
      .then((reply) => {
        if (!live) return;
        writeSectionStart(experimentId, index, reply.section.openedAt ?? reply.serverTime, reply.serverTime);
        const clock = startClock(reply.section.remainingMs, readSectionClock(experimentId, index));
        setStart({ index, clock, opened: true });
      })
      .catch((failure: unknown) => {
        if (!live) return;
        if (failure instanceof ApiError && failure.code === 'STEP_OUT_OF_ORDER') return refresh();
        console.warn('opening the section failed', failure);
        setStart({ index, clock: startClock(fallbackMs, readSectionClock(experimentId, index)), opened: false });
      });
    return () => {
      live = false;
    };
  }, [experimentId, index, fallbackMs, refresh]);

  if (!section) return null;
  const isLast = index === sections.length - 1;
  const remaining = countdown.seconds ?? Math.ceil(fallbackMs / 1000);
  const enabled = current !== null && canAdvance(remaining, scrolled) && !busy;

  async function handleNext() {
    const clock = countdown.read();
    if (!enabled || !clock || !current) return;
    setBusy(true);
    setError(null);
    try {
      if (!current.opened) await openSection(experimentId, index);
      // The last finish's reply carries the journey (now at the chat) into the store for the chat page's guard.
      openedByFinish.current = await finishSection({
        experimentId,
        sectionIndex: index,
        visibleSeconds: reportedSeconds(clock.visibleMs),
        hiddenSeconds: reportedSeconds(clock.hiddenMs),
      });
    } catch (failure) {
      setBusy(false);
      // The server's clock decides: keep counting for the time it says is left.
      if (failure instanceof ApiError && failure.code === 'SECTION_TOO_EARLY') {
        countdown.extendTo((failure.details.remainingSeconds ?? 1) * 1000);
        return;
      }
      if (failure instanceof ApiError && failure.code === 'STEP_OUT_OF_ORDER') return refresh();
      setError(SAVE_FAILED);
      return;
    }
    const sectionStatus = progress.sectionStatus.map((done, i) => done || i === index);
    if (isLast) {
      writeProgress(experimentId, { currentSection: index, sectionStatus });
      setFlag('staticContentReviewed');
      navigate(`/experiment/${experimentId}/chat`, { replace: true });
      return;
    }
    setProgress({ currentSection: index + 1, sectionStatus });
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
      {/* Busy until the server has opened the section and its countdown runs. */}
      <Card aria-busy={current === null}>
        <h1
          ref={heading}
          tabIndex={-1}
          className="mb-4 text-2xl font-bold text-slate-900 focus:outline-none sm:text-3xl"
        >
          {section.title}
        </h1>
        {/* A Markdown section waits for its renderer here. A new boundary per section: the end of the text
            (contentEnd) is not on the page, so not reached, until the section's text is. */}
        <Suspense key={index} fallback={<Spinner />}>
          <ContentBlocks blocks={section.blocks} />
          <div ref={contentEnd} />
        </Suspense>
      </Card>
      {error && <Alert className="mt-4">{error}</Alert>}
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
