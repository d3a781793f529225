import type { CompletionStatus } from '@studychat/contracts/web';
import { endpoints } from '@studychat/contracts/web';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { api } from '../../lib/api';
import { currentUser, isLoggedIn } from '../../lib/session';
import { decideStudyRoute, type StudyStep } from './study-guard';
import { findAssignment } from './study-api';
import { preloadStudyPages } from './study-pages';
import { readCachedStatus, readStudySession, removeSession, writeCachedStatus, writeSession } from './study-storage';
import { useBackTrap } from './use-back-trap';

/** Wraps a participant page with the guards of spec section 4 and the back-button trap. */
export function StudyRoute({ step, children }: { step: StudyStep; children: ReactNode }) {
  const location = useLocation();
  useEffect(preloadStudyPages, []);
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
  const statusExperimentId = session.experimentId ?? routeExperimentId ?? null;
  const needsStatus = auth.loggedIn && !auth.isAdmin && step !== 'completion' && statusExperimentId !== null;
  const cached = statusExperimentId ? readCachedStatus(statusExperimentId) : null;
  const [fetched, setFetched] = useState<CompletionStatus | 'pending' | null>(
    needsStatus && !cached?.alreadyCompleted ? 'pending' : null,
  );
  useBackTrap();

  useEffect(() => {
    if (fetched !== 'pending' || !statusExperimentId) return;
    let live = true;
    api(endpoints.participants.status, { params: { experimentId: statusExperimentId } })
      .then((status) => {
        if (status.alreadyCompleted) writeCachedStatus(statusExperimentId, status);
        if (live) setFetched(status);
      })
      .catch((error: unknown) => {
        // An unreachable status must not block the participant; the server still refuses repeats.
        console.warn('completion status check failed', error);
        if (live) setFetched(null);
      });
    return () => {
      live = false;
    };
  }, [fetched, statusExperimentId]);

  const decision = decideStudyRoute({
    step,
    routeExperimentId,
    auth,
    session,
    completion: cached?.alreadyCompleted ? cached : fetched,
  });

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
  if (decision.kind !== 'allow') return <StudyLoading />;
  return <>{children}</>;
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
