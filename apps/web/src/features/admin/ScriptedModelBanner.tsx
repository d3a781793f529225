import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Says loudly when the scripted offline model answers the chat: no real AI model is connected. */
export function ScriptedModelBanner() {
  const { data } = useQuery({
    queryKey: ['admin', 'system'],
    queryFn: () => api(endpoints.admin.system, {}),
    staleTime: 60_000,
  });
  if (!data?.scripted) return null;
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950"
    >
      No real AI model is connected: the chat is answered by the scripted offline model. Set LLM_PROVIDER and an API key
      before running a live study.
    </div>
  );
}
