import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from '../../lib/router';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { ApiError } from '../../lib/api';
import { currentUser, isLoggedIn } from '../../lib/session';
import { decideStudyRoute, journeyAllows, type StudyStep } from './study-guard';
import { findAssignment, freshJourney, refreshJourney, useParticipant } from './participant-store';
import { loadParticipantStudy, type StudyRead } from './study-content';
import { preloadStudyPages } from './study-pages';
import { readCachedStatus, readStudySession, removeSession, writeSession } from './study-storage';
import { useBackTrap } from './use-back-trap';
import { useHeartbeat } from './use-heartbeat';
import { StudyContext, type PageStudy } from './study-context';

/** Wraps a participant page with the guards of spec section 4 and the back-button trap. */
export function StudyRoute({ step, children }: { step: StudyStep; children: ReactNode }) {
  const location = useLocation();
  useEffect(preloadStudyPages, []);
  const user = isLoggedIn() ? currentUser() : null;
  useHeartbeat(user !== null && !user.isAdmin);
  // A fresh guard per page, so each navigation re-checks the completion status.
  return (
    <StudyGuard key={location.pathname} step={step}>
      {children}
    </StudyGuard>
  );
}

function StudyGuard({ step, children }: { step: StudyStep; children: ReactNode }) {
  const { experimentId: routeExperimentId } = useParams();
  const [version, setVersion] = useState(0);
  const user = isLoggedIn() ? currentUser() : null;
  const auth = { loggedIn: isLoggedIn(), isAdmin: user?.isAdmin ?? false };
  const session = readStudySession();
  const experimentId = session.experimentId ?? routeExperimentId ?? null;
  const cached = experimentId ? readCachedStatus(experimentId) : null;
  // The server's journey decides for participants; a completed one (cached) needs no reading.
  const needsJourney = auth.loggedIn && !auth.isAdmin && experimentId !== null && !cached?.alreadyCompleted;
  // The store's journey, when fresh and it lets this page show (a write that led here handed it over: 0068), needs
  // no read; otherwise the guard reads it once. Later changes (a page's refresh, a write) reach it through the store.
  const [read, setRead] = useState<'none' | 'pending' | 'done' | 'failed'>(() => {
    if (!needsJourney || !experimentId) return 'none';
    const known = freshJourney(experimentId);
    return known && journeyAllows(step, routeExperimentId, known) ? 'done' : 'pending';
  });
  // The journey this page decides with: the one it mounted with or read, and each later read (a page's refresh).
  const { journey: stored, reads } = useParticipant();
  const [decidingWith, setDecidingWith] = useState(() => (read === 'done' ? stored : null));
  const [readsSeen, setReadsSeen] = useState(reads);
  if (reads !== readsSeen) {
    setReadsSeen(reads);
    setDecidingWith(stored);
  }
  // The study's texts: the experiment's version from the server (the page waits for it; a failed read shows
  // a retry, never another study's texts), or the built-in study for a page shown with no experiment.
  const needsStudy = auth.loggedIn && experimentId !== null;
  const [study, setStudy] = useState<PageStudy | 'unreachable' | 'not-joined' | 'pending'>('pending');
  const [flowStudy, setFlowStudy] = useState(false);
  const [studyReads, setStudyReads] = useState(0);
  useBackTrap();

  useEffect(() => {
    let live = true;
    // A participant with no experiment here (a new tab keeps no session) gets no study: the Prolific link
    // brings them back to theirs. Only an admin looking at the pages sees the built-in one.
    const load: Promise<StudyRead | PageStudy> =
      needsStudy && experimentId
        ? loadParticipantStudy(experimentId)
        : auth.isAdmin
          ? import('./builtin-study').then((m) => m.builtInStudy)
          : Promise.resolve('not-joined');
    void load.then((value) => {
      if (live && value !== undefined) setStudy(value);
    });
    return () => {
      live = false;
    };
  }, [needsStudy, experimentId, studyReads, auth.isAdmin]);

  useEffect(() => {
    if (read !== 'pending' || !experimentId) return;
    let live = true;
    refreshJourney(experimentId)
      .then((journey) => {
        if (!live) return;
        setDecidingWith(journey);
        setRead('done');
      })
      .catch((error: unknown) => {
        // A 401 has already sent the browser to /login (spec section 4): stay waiting rather than redirect too.
        if (error instanceof ApiError && error.status === 401) return;
        // A study written as a flow (issue 30) has its own page: the participant goes on there.
        if (error instanceof ApiError && error.code === 'FLOW_STUDY') {
          if (live) setFlowStudy(true);
          return;
        }
        // Unreachable (or not joined): the session decides; the server still refuses writes out of order.
        console.warn('journey check failed', error);
        if (live) setRead('failed');
      });
    return () => {
      live = false;
    };
  }, [read, experimentId]);

  const journey =
    read === 'pending'
      ? 'pending'
      : read === 'done' && decidingWith?.experimentId === experimentId
        ? decidingWith
        : null;
  const decision = decideStudyRoute({
    step,
    routeExperimentId,
    auth,
    session,
    completion: cached?.alreadyCompleted ? cached : null,
    journey,
    conditions: typeof study === 'object' ? study.conditionList.map((c) => c.id) : null,
  });
  const studyRead = typeof study === 'object' ? study : null;

  const repairFor = decision.kind === 'repair' ? decision.experimentId : undefined;
  useEffect(() => {
    if (repairFor === undefined) return;
    let live = true;
    void repairSession(user?.userId ?? null, repairFor).then(() => {
      if (live) setVersion((v) => v + 1);
    });
    return () => {
      live = false;
    };
    // `version` re-runs the check after a repair that changed nothing.
  }, [repairFor, user?.userId, version]);

  if (flowStudy && experimentId) return <Navigate to={`/flow/${experimentId}`} replace />;
  if (decision.kind === 'redirect') {
    return <Navigate to={decision.to} replace state={decision.pathway ? { pathway: decision.pathway } : undefined} />;
  }
  if (decision.kind === 'allow' && (study === 'unreachable' || study === 'not-joined')) {
    const retry = () => {
      setStudy('pending');
      setStudyReads((n) => n + 1);
    };
    return <StudyUnavailable retry={study === 'unreachable' ? retry : null} />;
  }
  if (decision.kind !== 'allow' || studyRead === null) return <StudyLoading />;
  return <StudyContext value={studyRead}>{children}</StudyContext>;
}

/** The brief check before a page shows, as a landmark with a heading so it reads sensibly. */
function StudyLoading() {
  return (
    <main className="flex min-h-dvh items-center justify-center">
      <h1 className="sr-only">Loading the study page</h1>
      <Spinner />
    </main>
  );
}

/**
 * The study could not be read. Unreachable: nothing is lost, the participant tries again. Not joined (the server
 * has no participation of this account here, or this tab knows no experiment): the Prolific link leads back.
 */
function StudyUnavailable({ retry }: { retry: (() => void) | null }) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-xl font-semibold text-slate-900">This page could not be loaded</h1>
      <p role="alert" className="text-slate-700">
        {retry
          ? 'Please check your internet connection, then try again. Your answers so far are saved.'
          : 'We could not find your place in the study. Please open the study link from Prolific again.'}
      </p>
      {retry && <Button onClick={retry}>Try again</Button>}
    </main>
  );
}

/** Restores the experiment id and condition from the server assignment, or clears preSurveySubmitted. */
async function repairSession(userId: string | null, experimentId: string | null): Promise<void> {
  try {
    const assignment = userId && experimentId ? await findAssignment(userId, experimentId) : null;
    if (assignment?.assigned_condition) {
      writeSession('EXPERIMENT_ID', assignment.experiment_id);
      writeSession('assignedCondition', assignment.assigned_condition);
      return;
    }
  } catch (error) {
    console.warn('could not repair the study session', error);
  }
  removeSession('preSurveySubmitted');
}
