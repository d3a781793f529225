import { useParams } from '../../../lib/router';
import { StudyLayout } from '../../../components/StudyLayout';
import { isLoggedIn } from '../../../lib/session';
import { useHeartbeat } from '../use-heartbeat';
import { FlowPage } from './FlowPage';

/** `/flow/:experimentId`: a study written as a flow, for the participant logged in on this browser. */
export function FlowRoutePage() {
  const { experimentId = '' } = useParams();
  const loggedIn = isLoggedIn();
  useHeartbeat(loggedIn);
  if (!loggedIn) {
    return (
      <StudyLayout title="Please open the study link again">
        <p className="text-slate-700">
          This browser is not signed in to the study. Please open the study link from Prolific again; your answers so
          far are saved.
        </p>
      </StudyLayout>
    );
  }
  return <FlowPage key={experimentId} experimentId={experimentId} />;
}
