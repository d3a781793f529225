import type { ReactNode } from 'react';
import { useParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { BackLink } from '../BackLink';
import { ApiError } from '../../../lib/api';
import { serverMessage } from '../format';
import { AssignmentsTable } from './AssignmentsTable';
import { ChatThreads } from './ChatThreads';
import { ProfileTable } from './ProfileTable';
import { SurveyResponsesList } from './SurveyResponsesList';
import { useAdminUser, useUserAssignments, useUserSurveyResponses } from './use-user-detail';

export const USER_LOAD_ERROR = 'Failed to load user. Please check your authorization or if the user exists.';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

function SectionError({ error, fallback }: { error: unknown; fallback: string }) {
  return <p className="text-red-700">Error: {serverMessage(error, fallback)}</p>;
}

/** `/admin/user/:id`: profile, chat threads, assignments and survey responses of one user. */
export function UserDetailPage() {
  const { id = '' } = useParams();
  const user = useAdminUser(id);
  const assignments = useUserAssignments(id);
  const surveys = useUserSurveyResponses(id);

  let body: ReactNode;
  // A malformed id (400 from validation) or an unknown one (404): the page says so in words, not the raw error.
  const notFound = user.isError && user.error instanceof ApiError && [400, 404].includes(user.error.status);
  if (user.isPending) body = <Spinner label="Loading user..." />;
  else if (notFound)
    body = (
      <Alert>
        <p className="font-semibold">User not found</p>
        <p className="mt-1">No user has this id. Check the link, or find the user in the Users list.</p>
      </Alert>
    );
  else if (user.isError)
    body = (
      <Alert>
        <span className="text-red-700">{serverMessage(user.error, USER_LOAD_ERROR)}</span>
      </Alert>
    );
  else if (!user.data) body = <p className="text-slate-700">User not found</p>;
  else
    body = (
      <>
        <Section title="Profile">
          <ProfileTable user={user.data} assignments={assignments.data} />
        </Section>
        <Section title="Chat Threads">
          <ChatThreads userId={id} />
        </Section>
        <Section title="Participant Assignments">
          {assignments.isPending ? (
            <Spinner label="Loading assignments..." />
          ) : assignments.isError ? (
            <SectionError error={assignments.error} fallback="Failed to load assignments." />
          ) : (
            <AssignmentsTable assignments={assignments.data} />
          )}
        </Section>
        <Section title="Survey Responses">
          {surveys.isPending ? (
            <Spinner label="Loading survey responses..." />
          ) : surveys.isError ? (
            <SectionError error={surveys.error} fallback="Failed to load survey responses." />
          ) : (
            <SurveyResponsesList responses={surveys.data} />
          )}
        </Section>
      </>
    );

  return (
    <div className="space-y-5">
      <BackLink to="/admin">Back to Users</BackLink>
      <h1 className="text-2xl font-bold break-all text-slate-900 sm:text-3xl">
        {user.data ? user.data.email : 'User Details'}
      </h1>
      {body}
    </div>
  );
}
