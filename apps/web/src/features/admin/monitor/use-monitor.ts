import { endpoints, EventStreamParser } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, sendRequest } from '../../../lib/api';
import { EXPERIMENTS_KEY } from '../experiments/use-experiments';

/** Every snapshot of the experiment (with and without test runs): invalidating it reloads both. */
export const monitorKey = (id: string) => ['monitor', id] as const;

/**
 * The snapshot; refreshed every 30 s anyway, so time on step, last seen and staleness stay current. With
 * `includeTests` the participant list has the test runs too (docs/decisions/0063); the previous list stays on
 * screen while the other one loads.
 */
export function useMonitor(id: string, includeTests = false) {
  return useQuery({
    queryKey: [...monitorKey(id), includeTests ? 'with-tests' : 'real'],
    queryFn: ({ signal }) =>
      api(endpoints.monitor.get, {
        params: { id },
        query: includeTests ? { include_tests: 'true' } : {},
        signal,
      }),
    refetchInterval: 30_000,
    placeholderData: (previous) => previous,
  });
}

export function useSaveMonitorSettings(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { stale_minutes?: number | null; target_sample_size?: number | null }) =>
      api(endpoints.monitor.updateSettings, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorKey(id) }),
  });
}

/** Reads `data: {"seq": n}` events from a stream body until it ends (the event-stream parser from contracts). */
async function readTicks(body: ReadableStream<Uint8Array>, onSeq: (seq: number) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventStreamParser(({ data }) => {
    if (!data.startsWith('{')) return;
    try {
      const tick = JSON.parse(data) as { seq?: unknown };
      if (typeof tick.seq === 'number') onSeq(tick.seq);
    } catch {
      // not ours
    }
  });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.push(decoder.decode(value, { stream: true }));
  }
}

/** At most one snapshot reload this often while events keep coming. */
const RELOAD_EVERY_MS = 2000;

/**
 * Keeps the snapshot live: listens to the experiment's event stream (reconnecting when it ends or fails)
 * and reloads the snapshot when the log moved past the snapshot's position. Returns whether it is connected.
 */
export function useMonitorStream(id: string, snapshotSeq: number | undefined): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const seqRef = useRef(snapshotSeq);
  seqRef.current = snapshotSeq;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastReload = 0;
    const reload = () => {
      const wait = Math.max(0, lastReload + RELOAD_EVERY_MS - Date.now());
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        lastReload = Date.now();
        void queryClient.invalidateQueries({ queryKey: monitorKey(id) });
        // The Participant Summary card counts the same people: it follows too.
        void queryClient.invalidateQueries({ queryKey: [...EXPERIMENTS_KEY, id, 'summary'] });
      }, wait);
    };
    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          const res = await sendRequest(
            endpoints.monitor.stream,
            { params: { id }, signal: controller.signal },
            'text/event-stream',
          );
          if (!res.body) throw new Error('no stream');
          setConnected(true);
          await readTicks(res.body, (seq) => {
            if (seqRef.current === undefined || seq > seqRef.current) reload();
          });
        } catch {
          // Dropped or refused: try again shortly.
        }
        setConnected(false);
        if (controller.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    };
    void run();
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [id, queryClient]);
  return connected;
}
