import { runJourney, type CallRecord } from './participant.js';

// The load generator of `npm run bench:journey`, in its own process so it does not share the server's
// event loop: N participants start at even intervals over T seconds, each running the whole journey.
// Reads its input as one JSON argument and prints one JSON line: the calls and the journeys' outcomes.
interface LoadInput {
  base: string;
  experimentId: string;
  credentials: { email: string; password: string }[];
  seconds: number;
  sectionWaitMs: number;
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const calls: CallRecord[] = [];
const failures: string[] = [];
/** Calls a journey makes when it completes (the per-journey figures are scaled by it when some fail). */
let completeJourneyCalls = 0;
const n = input.credentials.length;
const started = performance.now();
const journeys = input.credentials.map(async (credential, i) => {
  const at = n <= 1 ? 0 : (i * input.seconds * 1000) / n;
  await new Promise((resolve) => setTimeout(resolve, at - (performance.now() - started)));
  let made = 0;
  try {
    await runJourney({
      base: input.base,
      experimentId: input.experimentId,
      credential,
      intention: (i % 6) + 1,
      sectionWaitMs: input.sectionWaitMs,
      record: (call) => {
        made += 1;
        calls.push(call);
      },
    });
    completeJourneyCalls = made;
  } catch (error) {
    failures.push(String(error));
  }
});
await Promise.all(journeys);

export interface EndpointFigure {
  endpoint: string;
  streaming: boolean;
  count: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const byEndpoint = new Map<string, CallRecord[]>();
for (const call of calls) {
  const list = byEndpoint.get(call.endpoint) ?? [];
  list.push(call);
  byEndpoint.set(call.endpoint, list);
}
const endpoints: EndpointFigure[] = [...byEndpoint].map(([endpoint, records]) => {
  const ms = records.map((r) => r.ms).sort((a, b) => a - b);
  return {
    endpoint,
    streaming: records[0]?.streaming ?? false,
    count: records.length,
    errors: records.filter((r) => !r.ok).length,
    p50Ms: Math.round(percentile(ms, 50) * 10) / 10,
    p99Ms: Math.round(percentile(ms, 99) * 10) / 10,
  };
});
process.stdout.write(
  JSON.stringify({
    endpoints,
    requests: calls.length,
    failures: failures.slice(0, 10),
    failed: failures.length,
    completeJourneyCalls,
    wallSeconds: (performance.now() - started) / 1000,
  }) + '\n',
);
