import { endpoints } from '@studychat/contracts/web';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api';

const userKey = (id: string) => ['admin', 'user', id] as const;

export function useAdminUser(id: string) {
  return useQuery({
    queryKey: userKey(id),
    queryFn: ({ signal }) => api(endpoints.admin.user, { params: { id }, signal }),
    retry: false,
  });
}

export function useUserAssignments(id: string) {
  return useQuery({
    queryKey: [...userKey(id), 'assignments'],
    queryFn: ({ signal }) => api(endpoints.admin.assignments, { params: { id }, signal }),
  });
}

export function useUserSurveyResponses(id: string) {
  return useQuery({
    queryKey: [...userKey(id), 'survey-responses'],
    queryFn: ({ signal }) => api(endpoints.admin.surveyResponses, { params: { id }, signal }),
  });
}

/** Thread and message failures are only logged (spec section 8). */
function useLogError(error: Error | null, what: string) {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}:`, error);
  }, [error, what]);
}

export function useUserThreads(id: string) {
  const query = useQuery({
    queryKey: [...userKey(id), 'threads'],
    queryFn: ({ signal }) => api(endpoints.admin.threads, { params: { id }, signal }),
  });
  useLogError(query.error, 'chat threads');
  return query;
}

export function useThreadMessages(id: string, threadId: string | null) {
  const query = useQuery({
    queryKey: [...userKey(id), 'threads', threadId, 'messages'],
    queryFn: ({ signal }) => api(endpoints.admin.threadMessages, { params: { id, threadId: threadId ?? '' }, signal }),
    enabled: threadId !== null,
  });
  useLogError(query.error, 'thread messages');
  return query;
}
