import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import { api } from '../../lib/api';

/**
 * On every admin page: says loudly when the scripted offline model answers the chat (no real AI model is
 * connected), and names each experiment whose chat budget is 80% or more spent.
 */
export function ScriptedModelBanner() {
  const { data } = useQuery({
    queryKey: ['admin', 'system'],
    queryFn: () => api(endpoints.admin.system, {}),
    staleTime: 60_000,
  });
  return (
    <>
      {data?.scripted && <ScriptedNotice />}
      {data?.budgetAlerts.map((alert) => (
        <div
          key={alert.experimentId}
          role="status"
          className={`border-b px-4 py-2 text-center text-sm font-medium ${alert.state === 'stopped' ? 'border-red-300 bg-red-100 text-red-950' : 'border-amber-300 bg-amber-100 text-amber-950'}`}
        >
          {alert.state === 'stopped' ? 'Chat budget used up' : 'Chat budget nearly used'} in{' '}
          <Link to={`/admin/experiments/${alert.experimentId}`} className="underline">
            {alert.name}
          </Link>
          : ${alert.spentUsd.toFixed(2)} of ${(alert.budgetUsd ?? 0).toFixed(2)}
          {alert.state === 'stopped' ? '. The chat gives no more replies.' : '.'}
        </div>
      ))}
    </>
  );
}

function ScriptedNotice() {
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
