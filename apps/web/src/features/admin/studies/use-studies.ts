import { endpoints } from '@studychat/contracts/web';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const STUDIES_KEY = ['admin', 'study-versions'] as const;

export function useStudyVersions() {
  return useQuery({ queryKey: STUDIES_KEY, queryFn: ({ signal }) => api(endpoints.studies.list, { signal }) });
}

/** One version; `keepPrevious` shows the last one read while another loads (a page that must not blink). */
export function useStudyVersion(id: string | undefined, keepPrevious = false) {
  return useQuery({
    queryKey: [...STUDIES_KEY, id],
    enabled: Boolean(id),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
    queryFn: ({ signal }) => api(endpoints.studies.get, { params: { id: id ?? '' }, signal }),
  });
}

/** Clones a version (a new, editable draft) and reloads the list. */
export function useCloneStudyVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; label?: string }) =>
      api(endpoints.studies.clone, { params: { id: input.id }, body: input.label ? { label: input.label } : {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STUDIES_KEY }),
  });
}

/** Deletes a version no experiment pins and nobody ran (docs/decisions/0077), and reloads the list. */
export function useDeleteStudyVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(endpoints.studies.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STUDIES_KEY }),
  });
}

/** Creates a version from a definition (a template) and reloads the list. */
export function useCreateStudyVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { label: string; definition: Record<string, unknown> }) =>
      api(endpoints.studies.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STUDIES_KEY }),
  });
}

/** Saves a draft's label and definition. */
export function useUpdateStudyVersion(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { label: string; definition: Record<string, unknown> }) =>
      api(endpoints.studies.update, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STUDIES_KEY }),
  });
}

/** Pins a version to an experiment. */
export function usePinStudyVersion(experimentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (studyVersionId: string) =>
      api(endpoints.studies.pin, { params: { id: experimentId }, body: { study_version_id: studyVersionId } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
