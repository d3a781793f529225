import type { FlowView, SubmitFlowStepBody } from '@studychat/contracts/web';
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { readFlowView, submitFlowStep } from './flow-api';

export type FlowLoad = { kind: 'loading' } | { kind: 'ready'; view: FlowView } | { kind: 'failed'; message: string };

/** What a refused write tells the page: the problems by question, or a message. */
export interface StepRefusal {
  message: string;
  /** The server's code for the refusal (e.g. QUOTA_FULL), when it gave one. */
  code?: string;
  /** A question's problem by its key (400 ANSWERS_INVALID). */
  byKey: Record<string, string>;
  /** The seconds left of a minimum time, by the server's clock (409 SECTION_TOO_EARLY, STEP_TOO_EARLY). */
  remainingSeconds?: number;
}

const UNREACHABLE = 'This page could not be loaded. Please check your connection and try again.';

/**
 * The participant's place in a flow, from the server: read on mount, replaced by each write's answer. A write the
 * server refuses as out of order (another device moved on) reads the view again, so the page follows the server.
 */
export function useFlow(experimentId: string) {
  const [load, setLoad] = useState<FlowLoad>({ kind: 'loading' });
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<StepRefusal | null>(null);

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const view = await readFlowView(experimentId, signal);
        if (!signal?.aborted) setLoad({ kind: 'ready', view });
      } catch (error) {
        if (signal?.aborted) return;
        setLoad({
          kind: 'failed',
          message: error instanceof ApiError && error.status !== 0 ? error.message : UNREACHABLE,
        });
      }
    },
    [experimentId],
  );

  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);

  const submit = useCallback(
    async (stepId: string, body: SubmitFlowStepBody = {}): Promise<boolean> => {
      setSending(true);
      setRefusal(null);
      try {
        const view = await submitFlowStep(experimentId, stepId, body);
        setLoad({ kind: 'ready', view });
        window.scrollTo(0, 0);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'STEP_OUT_OF_ORDER') {
          await refresh();
          return false;
        }
        const byKey = Object.fromEntries(
          (error instanceof ApiError ? (error.details.issues ?? []) : []).map((i) => [i.path, i.message]),
        );
        const remainingSeconds = error instanceof ApiError ? error.details.remainingSeconds : undefined;
        setRefusal({
          message: error instanceof Error ? error.message : 'Something went wrong. Please try again.',
          ...(error instanceof ApiError ? { code: error.code } : {}),
          byKey,
          ...(remainingSeconds !== undefined ? { remainingSeconds } : {}),
        });
        return false;
      } finally {
        setSending(false);
      }
    },
    [experimentId, refresh],
  );

  return { load, sending, refusal, submit, refresh, clearRefusal: () => setRefusal(null) };
}
