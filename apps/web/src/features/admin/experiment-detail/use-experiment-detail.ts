import { endpoints, type Condition, type Experiment, type ExperimentState, type Quota } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { EXPERIMENTS_KEY } from '../experiments/use-experiments';
import { monitorKey } from '../monitor/use-monitor';
import type { EditChanges } from './edit-changes';

const experimentKey = (id: string) => [...EXPERIMENTS_KEY, id] as const;

export function useExperiment(id: string) {
  return useQuery({
    queryKey: experimentKey(id),
    queryFn: ({ signal }) => api(endpoints.experiments.get, { params: { id }, signal }),
    retry: false,
  });
}

export function useParticipantSummary(id: string) {
  return useQuery({
    queryKey: [...experimentKey(id), 'summary'],
    queryFn: ({ signal }) => api(endpoints.experiments.participantSummary, { params: { id }, signal }),
  });
}

export function useParticipantsDetailed(id: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: [...experimentKey(id), 'participants'],
    queryFn: ({ signal }) => api(endpoints.experiments.participantsDetailed, { params: { id }, signal }),
  });
}

/** Sends only what changed (details, then codes), then reloads the experiment and the list. */
export function useSaveExperiment(experiment: Experiment) {
  const queryClient = useQueryClient();
  const { id } = experiment;
  return useMutation({
    mutationFn: async (changes: EditChanges) => {
      if (changes.details) await api(endpoints.experiments.update, { params: { id }, body: changes.details });
      if (changes.codes)
        await api(endpoints.experiments.updateCodes, { params: { id }, body: { codes: changes.codes } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXPERIMENTS_KEY }),
  });
}

const loginsKey = (id: string) => [...experimentKey(id), 'logins'] as const;

/** The experiment's study logins, used and unused. */
export function useStudyLogins(id: string) {
  return useQuery({
    queryKey: loginsKey(id),
    queryFn: ({ signal }) => api(endpoints.experiments.logins, { params: { id }, signal }),
  });
}

/** Generates a batch of study logins; the logins list reloads to include them. */
export function useGenerateCredentials(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (count: number) => api(endpoints.experiments.batchCredentials, { params: { id }, body: { count } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loginsKey(id) }),
  });
}

/** Withdrawal: deletes one Prolific id's data, then reloads the experiment's counts and table. */
export function useWithdraw(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prolificId: string) => api(endpoints.experiments.withdraw, { params: { id }, body: { prolificId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: experimentKey(id) }),
  });
}

/** The study of the experiment's pinned version as participants get it (its conditions, ids and labels). */
export function useExperimentStudy(id: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: [...experimentKey(id), 'study'],
    queryFn: ({ signal }) => api(endpoints.studies.participantView, { params: { experimentId: id }, signal }),
  });
}

/** "Preview as participant": a test participant in the chosen condition and its one-time link. */
export function useCreatePreview(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (condition: Condition) => api(endpoints.preview.create, { params: { id }, body: { condition } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: experimentKey(id) }),
  });
}

/** Changes the experiment's state (docs/decisions/0077); the experiment, its monitor and the list reload. */
export function useSetExperimentState(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (state: ExperimentState) => api(endpoints.experiments.setState, { params: { id }, body: { state } }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: EXPERIMENTS_KEY });
      await queryClient.invalidateQueries({ queryKey: monitorKey(id) });
    },
  });
}

/** Deletes a draft experiment nobody joined, with its study logins. */
export function useDeleteExperiment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(endpoints.experiments.remove, { params: { id } }),
    onSuccess: () => queryClient.removeQueries({ queryKey: experimentKey(id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...EXPERIMENTS_KEY, 'list'] }),
  });
}

/** Revokes one study login by its email; the logins list reloads. */
export function useRevokeLogin(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api(endpoints.experiments.revokeLogin, { params: { id }, body: { email } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginsKey(id) }),
  });
}

const quotasKey = (id: string) => [...experimentKey(id), 'quotas'] as const;

/** The experiment's quotas with how full each is (docs/decisions/0077). */
export function useQuotas(id: string) {
  return useQuery({
    queryKey: quotasKey(id),
    queryFn: ({ signal }) => api(endpoints.experiments.quotas, { params: { id }, signal }),
  });
}

/** Replaces the experiment's quotas; the reply is the new list. */
export function useSaveQuotas(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quotas: Quota[]) => api(endpoints.experiments.updateQuotas, { params: { id }, body: { quotas } }),
    onSuccess: (reply) => queryClient.setQueryData(quotasKey(id), reply),
  });
}
