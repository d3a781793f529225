import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The provider's errors, waits and fallbacks over recent periods; refreshed every 30 s like the monitor. */
export function useProviderHealth(id: string) {
  return useQuery({
    queryKey: ['monitor', id, 'provider-health'],
    queryFn: ({ signal }) => api(endpoints.providerHealth.get, { params: { id }, signal }),
    refetchInterval: 30_000,
  });
}
