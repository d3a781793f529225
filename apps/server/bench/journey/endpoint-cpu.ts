import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { studyScripts } from '../../src/llm/create-chat-model.js';
import { createScriptedModel } from '../../src/llm/scripted.model.js';
import { startBenchApp } from './bench-app.js';
import { BENCH_SECTION_SECONDS } from './bench-study.js';
import { runJourney } from './participant.js';

// Server CPU per endpoint of the participant journey, measured in one process without HTTP: the journeys
// of `npm run bench:journey` run one after the other through `app.inject` (routing, hooks, validation,
// handlers, database, serialisation; not node's HTTP parser or the socket), and the process's CPU time is
// read around each call. One call at a time, so each call's CPU is its own, even on a busy machine (the
// time the machine gives to others is not counted). For comparing a change before and after, not for the
// budget (that is `npm run bench:journey`, over HTTP).
//   npx tsx bench/journey/endpoint-cpu.ts --journeys 200 --warmup 50 [--dialect postgres] [--profile FILE]
const { values: flags } = parseArgs({
  options: {
    journeys: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '50' },
    dialect: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
  },
});
const journeys = Number(flags.journeys);
const warmup = Number(flags.warmup);
const dialect = flags.dialect === 'postgres' ? 'postgres' : 'sqlite';
const bench = await startBenchApp({
  dialect,
  participants: journeys + warmup,
  databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  // Each word in a turn of the event loop of its own, as the running server's pause makes it, without the wait.
  chatModel: createScriptedModel({
    scripts: studyScripts(),
    wordDelayMs: 1,
    sleep: () => new Promise<void>((resolve) => setImmediate(resolve)),
  }),
});

// The journey's fetch answered by app.inject; a section's minimum is met by moving the clock past it.
let lastCallUs = 0;
globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(String(input));
  const before = process.cpuUsage();
  const res = await bench.app.inject({
    method: (init?.method ?? 'GET') as 'GET',
    url: url.pathname + url.search,
    headers: (init?.headers ?? {}) as Record<string, string>,
    ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
  });
  const used = process.cpuUsage(before);
  lastCallUs = used.user + used.system;
  // A finish opens the next section too (docs/decisions/0067): its minimum is met the same way.
  if (/\/sections\/(open|finish)$/.test(url.pathname)) bench.clockControl.advance(BENCH_SECTION_SECONDS * 1000);
  return new Response(res.body, { status: res.statusCode });
}) as typeof fetch;

const perEndpoint = new Map<string, { calls: number; us: number }>();
let measuring = false;
async function run(credential: { email: string; password: string }, i: number): Promise<void> {
  await runJourney({
    base: 'http://bench.invalid',
    experimentId: bench.experimentId,
    credential,
    intention: (i % 6) + 1,
    sectionWaitMs: 0,
    record: (call) => {
      if (!call.ok) throw new Error(`${call.endpoint}: ${call.error ?? ''}`);
      if (!measuring) return;
      const entry = perEndpoint.get(call.endpoint) ?? { calls: 0, us: 0 };
      entry.calls += 1;
      entry.us += lastCallUs;
      perEndpoint.set(call.endpoint, entry);
    },
  });
}

for (let i = 0; i < warmup; i++) await run(bench.credentials[i] as { email: string; password: string }, i);
const profiler = new Session();
if (flags.profile) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
measuring = true;
const started = process.cpuUsage();
for (let i = warmup; i < warmup + journeys; i++)
  await run(bench.credentials[i] as { email: string; password: string }, i);
const total = process.cpuUsage(started);
measuring = false;
if (flags.profile) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(flags.profile, JSON.stringify(profile));
  profiler.disconnect();
}
await bench.close();

const callsUs = [...perEndpoint.values()].reduce((sum, e) => sum + e.us, 0);
console.log(`${dialect}: ${journeys} journeys one at a time after ${warmup} to warm up, through app.inject`);
console.log('endpoint'.padEnd(52), 'calls'.padStart(6), 'µs/call'.padStart(8), 'ms/journey'.padStart(11));
for (const [endpoint, e] of [...perEndpoint].sort((a, b) => b[1].us - a[1].us)) {
  console.log(
    endpoint.padEnd(52),
    String(e.calls).padStart(6),
    (e.us / e.calls).toFixed(0).padStart(8),
    (e.us / 1000 / journeys).toFixed(2).padStart(11),
  );
}
console.log(
  `CPU per journey: ${((total.user + total.system) / 1000 / journeys).toFixed(1)} ms in all, ` +
    `${(callsUs / 1000 / journeys).toFixed(1)} ms inside the calls`,
);
