import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const EXPERIMENTS_KEY = ['admin', 'experiments'] as const;

/** The experiments, newest first; archived ones only with `includeArchived` (docs/decisions/0077). */
export function useExperiments(includeArchived = false) {
  return useQuery({
    queryKey: [...EXPERIMENTS_KEY, 'list', includeArchived ? 'with-archived' : 'active'],
    queryFn: ({ signal }) =>
      api(endpoints.experiments.list, {
        query: includeArchived ? { include_archived: 'true' } : {},
        signal,
      }),
  });
}

/** Creates an experiment and reloads the list. */
export function useCreateExperiment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description: string | null }) => api(endpoints.experiments.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EXPERIMENTS_KEY }),
  });
}
