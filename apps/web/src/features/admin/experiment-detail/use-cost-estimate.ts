import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { EXPERIMENTS_KEY } from '../experiments/use-experiments';

/** The expected chat cost at a sample size (docs/decisions/0076); the last estimate stays while the next loads. */
export function useCostEstimate(id: string, sample: number) {
  return useQuery({
    queryKey: [...EXPERIMENTS_KEY, id, 'cost-estimate', sample],
    queryFn: ({ signal }) => api(endpoints.costEstimate.get, { params: { id }, query: { sample }, signal }),
    placeholderData: (previous) => previous,
  });
}
