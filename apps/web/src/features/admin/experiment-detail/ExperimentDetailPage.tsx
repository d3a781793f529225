import { useParams } from '../../../lib/router';
import { useCanEditExperiment, useOwnsExperiment } from '../experiment-role';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { BackLink } from '../BackLink';
import { ModelCheckPanel } from '../model/ModelCheckPanel';
import { MonitorPanel } from '../monitor/MonitorPanel';
import { ProviderHealthPanel } from '../monitor/ProviderHealthPanel';
import { ChatLimitsCard } from './ChatLimitsCard';
import { CostEstimateCard } from './CostEstimateCard';
import { ProlificStudyCard } from './ProlificStudyCard';
import { ProlificLinkJoinCard } from './ProlificLinkJoinCard';
import { ProlificReviewCard } from './ProlificReviewCard';
import { ProlificLaunchCard } from './ProlificLaunchCard';
import { ProlificBonusCard } from './ProlificBonusCard';
import { WaveSettingCard } from './WaveSettingCard';
import { serverMessage } from '../format';
import { CredentialsPanel } from './CredentialsPanel';
import { ExperimentDetailsCard } from './ExperimentDetailsCard';
import { LifecycleCard } from './LifecycleCard';
import { QuotasCard } from './QuotasCard';
import { ExportsPanel } from './ExportsPanel';
import { WithdrawalPanel } from './WithdrawalPanel';
import { IntentionChart } from './IntentionChart';
import { ParticipantsTable } from './ParticipantsTable';
import { ParticipantSummaryCard } from './ParticipantSummaryCard';
import { PilotCard } from './PilotCard';
import { PeopleCard } from './PeopleCard';
import { PreviewPanel } from './PreviewPanel';
import { StudyLoginsPanel } from './StudyLoginsPanel';
import { StudyVersionCard } from '../studies/StudyVersionCard';
import { useExperiment, useExperimentStudy, useParticipantsDetailed } from './use-experiment-detail';
import { isFlowDefinition } from '@studychat/contracts/web';
import { useStudyVersion } from '../studies/use-studies';
import { FlowCodesCard } from './flow/FlowCodesCard';
import { FlowProgressCard } from './flow/FlowProgressCard';

/**
 * `/admin/experiments/:id`: details, status (draft, open, paused, closed, archived), summary, results chart, participants, chat limits and budget, the model
 * check, credentials, study logins (used and unused) and exports.
 */
export function ExperimentDetailPage() {
  const { id = '' } = useParams();
  const experiment = useExperiment(id);
  // What the caller may do here: their role on this experiment within their account's (docs/decisions/0087).
  const editable = useCanEditExperiment(id);
  const owns = useOwnsExperiment(id);
  // A study written as a flow (issue 30) has its own monitor and codes; the built-in shape's panels read the spec's.
  const pinned = useStudyVersion(experiment.data?.study_version_id ?? undefined, true);
  const pinnedLoading = Boolean(experiment.data?.study_version_id) && pinned.isPending;
  const flowDefinition = isFlowDefinition(pinned.data?.definition) ? pinned.data.definition : undefined;
  const flow = flowDefinition !== undefined;
  const builtIn = experiment.isSuccess && !pinnedLoading && !flow;
  const participants = useParticipantsDetailed(id, builtIn);
  // The conditions of the pinned study version (docs/decisions/0061): the preview's choices, the chart's order.
  const conditions = useExperimentStudy(id, builtIn).data?.conditionList;

  return (
    <div className="space-y-5">
      <BackLink to="/admin/experiments">Back to Experiments</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Experiment Details</h1>
      {experiment.isPending ? (
        <Spinner label="Loading experiment..." />
      ) : experiment.isError ? (
        <Alert>
          <p>Failed to load data</p>
          <p className="mt-1 text-sm">{serverMessage(experiment.error, '')}</p>
        </Alert>
      ) : pinnedLoading ? (
        <Spinner label="Loading the study..." />
      ) : flow ? (
        <>
          <ExperimentDetailsCard experiment={experiment.data} showCodes={false} />
          <LifecycleCard experiment={experiment.data} editable={owns} />
          <PeopleCard experimentId={id} />
          <QuotasCard experimentId={id} editable={editable} />
          <StudyVersionCard experiment={experiment.data} />
          <FlowProgressCard experimentId={id} />
          <FlowCodesCard experimentId={id} editable={editable} />
          <ProviderHealthPanel experimentId={id} />
          <CostEstimateCard experimentId={id} />
          <PilotCard experimentId={id} />
          {editable && (
            <>
              <PreviewPanel experimentId={id} conditions={flowDefinition?.conditions} />
              <ChatLimitsCard experimentId={id} />
              <ProlificStudyCard experimentId={id} />
              <ProlificLaunchCard experimentId={id} />
              <ProlificLinkJoinCard experimentId={id} />
              <ProlificReviewCard experimentId={id} />
              <ProlificBonusCard experimentId={id} />
              <WaveSettingCard experimentId={id} />
              <ModelCheckPanel />
              <CredentialsPanel experimentId={id} />
              <StudyLoginsPanel experimentId={id} />
              <WithdrawalPanel experimentId={id} />
            </>
          )}
          <ExportsPanel experimentId={id} packageOnly />
        </>
      ) : (
        <>
          <ExperimentDetailsCard experiment={experiment.data} />
          <LifecycleCard experiment={experiment.data} editable={owns} />
          <PeopleCard experimentId={id} />
          <QuotasCard experimentId={id} editable={editable} />
          <MonitorPanel experimentId={id} />
          <StudyVersionCard experiment={experiment.data} />
          <CostEstimateCard experimentId={id} />
          <PilotCard experimentId={id} />
          <div className="grid items-start gap-5 lg:grid-cols-[1fr_1.4fr]">
            <ParticipantSummaryCard experimentId={id} />
            <Card>
              <h2 className="text-lg font-semibold text-slate-900">Intention Before and After</h2>
              <div className="mt-3">
                {participants.isSuccess ? (
                  <IntentionChart rows={participants.data} conditions={conditions?.map((c) => c.id)} />
                ) : participants.isError ? (
                  <p className="text-red-700">Failed to load data</p>
                ) : (
                  <Spinner />
                )}
              </div>
            </Card>
          </div>
          <Card>
            <h2 className="mb-4 text-lg font-semibold text-slate-900">
              Participants{participants.data ? ` (${participants.data.length})` : ''}
            </h2>
            {participants.isPending ? (
              <Spinner label="Loading participants..." />
            ) : participants.isError ? (
              <Alert>
                <p>Failed to load data</p>
                <p className="mt-1 text-sm">{serverMessage(participants.error, '')}</p>
              </Alert>
            ) : (
              <ParticipantsTable rows={participants.data} />
            )}
          </Card>
          {editable && (
            <>
              <PreviewPanel experimentId={id} conditions={conditions} />
              <ChatLimitsCard experimentId={id} />
              <ProlificStudyCard experimentId={id} />
              <ProlificLaunchCard experimentId={id} />
              <ProlificLinkJoinCard experimentId={id} />
              <ProlificReviewCard experimentId={id} />
              <ProlificBonusCard experimentId={id} />
              <WaveSettingCard experimentId={id} />
              <ModelCheckPanel />
              <CredentialsPanel experimentId={id} />
              <StudyLoginsPanel experimentId={id} />
              <WithdrawalPanel experimentId={id} />
            </>
          )}
          <ExportsPanel experimentId={id} />
        </>
      )}
    </div>
  );
}
