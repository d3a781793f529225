import { endpoints, type UserSortField } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { SortState } from '../../../components/sorting';

/** The users list, sorted by the server (`?sortBy=&order=`). */
export function useUsers(sort: SortState<UserSortField>) {
  return useQuery({
    queryKey: ['admin', 'users', sort.key, sort.order],
    queryFn: ({ signal }) => api(endpoints.admin.users, { query: { sortBy: sort.key, order: sort.order }, signal }),
    placeholderData: (previous) => previous,
  });
}
