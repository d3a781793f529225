import { endpoints, type PilotRun, type StartPilotBody } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { EXPERIMENTS_KEY } from '../experiments/use-experiments';

const pilotsKey = (id: string) => [...EXPERIMENTS_KEY, id, 'pilots'] as const;

/** The experiment's pilot runs, newest first (docs/decisions/0085). */
export function usePilotRuns(id: string) {
  return useQuery({
    queryKey: pilotsKey(id),
    queryFn: ({ signal }) => api(endpoints.pilot.list, { params: { id }, signal }),
  });
}

/** One run with its report. */
export function usePilotRun(id: string, pilotId: string | undefined) {
  return useQuery({
    enabled: pilotId !== undefined,
    queryKey: [...pilotsKey(id), pilotId],
    queryFn: ({ signal }) => api(endpoints.pilot.get, { params: { id, pilotId: pilotId ?? '' }, signal }),
  });
}

/** Runs a pilot (seconds); the report comes back with it and the list is read again. */
export function useStartPilot(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartPilotBody) => api(endpoints.pilot.start, { params: { id }, body }),
    onSuccess: (run: PilotRun) => {
      queryClient.setQueryData([...pilotsKey(id), run.id], run);
      return queryClient.invalidateQueries({ queryKey: pilotsKey(id), exact: true });
    },
  });
}
