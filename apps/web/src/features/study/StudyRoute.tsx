import type { Journey, ParticipantStudy } from '@studychat/contracts/web';
import { endpoints } from '@studychat/contracts/web';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { api, ApiError } from '../../lib/api';
import { currentUser, isLoggedIn } from '../../lib/session';
import { decideStudyRoute, type StudyStep } from './study-guard';
import { JourneyContext } from './journey-context';
import { findAssignment } from './study-api';
import { loadParticipantStudy } from './study-content';
import { preloadStudyPages } from './study-pages';
import { cacheJourney, readCachedStatus, readStudySession, removeSession, writeSession } from './study-storage';
import { useBackTrap } from './use-back-trap';
import { useHeartbeat } from './use-heartbeat';

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
  const [journey, setJourney] = useState<Journey | 'pending' | null>(needsJourney ? 'pending' : null);
  const [reads, setReads] = useState(0);
  // The study's texts for this experiment: the page waits for them (or for their failure).
  const needsStudy = auth.loggedIn && experimentId !== null;
  const [study, setStudy] = useState<ParticipantStudy | null | 'pending'>(needsStudy ? 'pending' : null);
  useBackTrap();

  useEffect(() => {
    if (!needsStudy || !experimentId) return;
    let live = true;
    void loadParticipantStudy(experimentId).then((read) => {
      if (live && read !== undefined) setStudy(read);
    });
    return () => {
      live = false;
    };
  }, [needsStudy, experimentId]);

  useEffect(() => {
    if (!needsJourney || !experimentId) return;
    let live = true;
    api(endpoints.journey.get, { params: { experimentId } })
      .then((read) => {
        cacheJourney(read);
        if (live) setJourney(read);
      })
      .catch((error: unknown) => {
        // A 401 has already sent the browser to /login (spec section 4): stay waiting rather than redirect too.
        if (error instanceof ApiError && error.status === 401) return;
        // Unreachable (or not joined): the session decides; the server still refuses writes out of order.
        console.warn('journey check failed', error);
        if (live) setJourney(null);
      });
    return () => {
      live = false;
    };
  }, [needsJourney, experimentId, reads]);

  const decision = decideStudyRoute({
    step,
    routeExperimentId,
    auth,
    session,
    completion: cached?.alreadyCompleted ? cached : null,
    journey,
    conditions: typeof study === 'object' && study ? study.conditionList.map((c) => c.id) : null,
  });
  const known = typeof journey === 'object' ? journey : null;
  const studyRead = study === 'pending' ? null : study;
  const context = useMemo(
    () => ({ journey: known, refresh: () => setReads((n) => n + 1), study: studyRead }),
    [known, studyRead],
  );

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

  if (decision.kind === 'redirect') {
    return <Navigate to={decision.to} replace state={decision.pathway ? { pathway: decision.pathway } : undefined} />;
  }
  if (decision.kind !== 'allow' || study === 'pending') return <StudyLoading />;
  return <JourneyContext value={context}>{children}</JourneyContext>;
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
