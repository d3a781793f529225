import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api';

const key = (id: string, part: string) => ['admin', 'experiments', id, 'flow', part] as const;

/** A flow experiment's participants by step, pathway and condition (polled every 15 s, like a monitor). */
export function useFlowProgress(experimentId: string) {
  return useQuery({
    queryKey: key(experimentId, 'progress'),
    queryFn: ({ signal }) => api(endpoints.flow.progress, { params: { id: experimentId }, query: {}, signal }),
    refetchInterval: 15_000,
  });
}

export function useFlowCodes(experimentId: string) {
  return useQuery({
    queryKey: key(experimentId, 'codes'),
    queryFn: ({ signal }) => api(endpoints.flow.codes, { params: { id: experimentId }, signal }),
  });
}

export function useUpdateFlowCodes(experimentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (codes: Record<string, string>) =>
      api(endpoints.flow.updateCodes, { params: { id: experimentId }, body: { codes } }),
    onSuccess: (reply) => queryClient.setQueryData(key(experimentId, 'codes'), reply),
  });
}
