import type { ExperimentRole } from '@studychat/contracts/web';
import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { canEdit } from './can-edit';

/** The people on an experiment and the caller's role there (docs/decisions/0087), one query per experiment. */
export function useExperimentMembers(experimentId: string) {
  return useQuery({
    queryKey: ['experiment-members', experimentId],
    queryFn: ({ signal }) => api(endpoints.members.list, { params: { id: experimentId }, signal }),
  });
}

/** The caller's role on the experiment; undefined until known (the account's role decides meanwhile). */
export function useExperimentRole(experimentId: string): ExperimentRole | undefined {
  return useExperimentMembers(experimentId).data?.your_role;
}

/** May the caller change the experiment's set-up (an admin who is no mere viewer)? The server enforces it. */
export function useCanEditExperiment(experimentId: string): boolean {
  const role = useExperimentRole(experimentId);
  return canEdit() && role !== 'viewer';
}

/** May the caller change the experiment's state or delete it (an admin who owns it, or any admin if lab-wide)? */
export function useOwnsExperiment(experimentId: string): boolean {
  const role = useExperimentRole(experimentId);
  return canEdit() && (role === undefined || role === 'owner');
}
