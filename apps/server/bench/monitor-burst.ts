import { readFileSync } from 'node:fs';
import { createDatabase } from '../src/db/database.js';
import { appendEvent } from '../src/modules/journey/journey-events.repository.js';

// The burst for the monitor bench, in a process of its own (as other server processes would be): every
// participant in BURST_USERS (a JSON file of user ids) takes ten journey steps, spread over BURST_SECONDS.

const users = JSON.parse(readFileSync(process.env.BURST_USERS ?? '', 'utf8')) as string[];
const experimentId = process.env.BURST_EXPERIMENT ?? '';
const seconds = Number(process.env.BURST_SECONDS ?? 10);
const database = createDatabase({ sqliteFile: process.env.BURST_SQLITE ?? '' });
const STEPS = [
  'consented',
  'entry',
  'baseline',
  'pre_survey',
  'assigned',
  'section_opened',
  'section_finished',
  'chat_started',
  'chat_complete',
  'post_survey',
] as const;
const ticks = seconds * 10;
const events = users.flatMap((userId) => STEPS.map((type) => ({ userId, type })));
const perTick = Math.ceil(events.length / ticks);
const started = Date.now();
for (let tick = 0; tick < ticks; tick++) {
  const batch = events.slice(tick * perTick, (tick + 1) * perTick);
  await database.db.transaction().execute(async (trx) => {
    for (const e of batch) {
      await appendEvent(trx, {
        experimentId,
        userId: e.userId,
        assignmentId: null,
        type: e.type,
        step: 'sections',
        createdAt: new Date().toISOString(),
      });
    }
  });
  const wait = started + (tick + 1) * 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
await database.close();
console.log(JSON.stringify({ events: events.length, ms: Date.now() - started }));
