import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const EXPERIMENTS_KEY = ['admin', 'experiments'] as const;

export function useExperiments() {
  return useQuery({
    queryKey: EXPERIMENTS_KEY,
    queryFn: ({ signal }) => api(endpoints.experiments.list, { signal }),
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
