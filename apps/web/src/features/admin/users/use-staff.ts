import { endpoints, type CreateStaffBody, type StaffRole } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const STAFF_KEY = ['admin', 'staff'];

/** The admins and analysts, and the changes an admin makes to them; each change reloads the list and the users. */
export function useStaff() {
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: STAFF_KEY });
    void client.invalidateQueries({ queryKey: ['admin', 'users'] });
  };
  const list = useQuery({ queryKey: STAFF_KEY, queryFn: ({ signal }) => api(endpoints.staff.list, { signal }) });
  const create = useMutation({
    mutationFn: (body: CreateStaffBody) => api(endpoints.staff.create, { body }),
    onSuccess: refresh,
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: StaffRole }) =>
      api(endpoints.staff.setRole, { params: { id }, body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(endpoints.staff.remove, { params: { id } }),
    onSuccess: refresh,
  });
  const resetTotp = useMutation({
    mutationFn: (id: string) => api(endpoints.staff.resetTotp, { params: { id } }),
    onSuccess: refresh,
  });
  return { list, create, setRole, remove, resetTotp };
}
