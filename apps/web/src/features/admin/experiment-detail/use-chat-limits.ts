import { endpoints, type ChatLimitOverrides } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { EXPERIMENTS_KEY } from '../experiments/use-experiments';

const limitsKey = (id: string) => [...EXPERIMENTS_KEY, id, 'chat-limits'] as const;

export function useChatLimits(id: string) {
  return useQuery({
    queryKey: limitsKey(id),
    queryFn: ({ signal }) => api(endpoints.experiments.chatLimits, { params: { id }, signal }),
  });
}

/** Sends the changed limits (null: back to the default), then reloads them and the budget banner. */
export function useSaveChatLimits(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (overrides: Partial<ChatLimitOverrides>) =>
      api(endpoints.experiments.updateChatLimits, { params: { id }, body: { overrides } }),
    onSuccess: (reply) => {
      queryClient.setQueryData(limitsKey(id), reply);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'system'] });
    },
  });
}
