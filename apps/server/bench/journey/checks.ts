import { CONDITIONS } from '@studychat/contracts';
import type { Database } from '../../src/db/database.js';
import { PER_CONDITION_IN_BLOCK } from '../../src/modules/participants/permuted-block.js';

export interface JourneyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const SURVEYS = ['entry', 'baseline', 'pre', 'post'];

/**
 * After a journey run: every participant finished with the right records, and the randomisation stayed
 * balanced (permuted blocks: within a stratum the conditions differ by at most half a block).
 */
export async function checkJourneyData(database: Database, experimentId: string): Promise<JourneyCheck[]> {
  const { db } = database;
  const assignments = await db
    .selectFrom('assignments')
    .select(['id', 'user_id', 'assigned_condition', 'stratum', 'completion_pathway', 'completed_at'])
    .where('experiment_id', '=', experimentId)
    .execute();
  const checks: JourneyCheck[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

  const completed = assignments.filter((a) => a.completion_pathway === 'complete' && a.completed_at !== null);
  check(
    'every participant completed',
    completed.length === assignments.length,
    `${completed.length}/${assignments.length}`,
  );

  // Participants whose journey stopped before the assignment have no condition yet: not part of the balance.
  const assigned = assignments.filter((a) => a.assigned_condition !== null);
  const strata = new Map<string, Map<string, number>>();
  for (const a of assigned) {
    const counts = strata.get(a.stratum ?? '?') ?? new Map<string, number>();
    counts.set(a.assigned_condition ?? '?', (counts.get(a.assigned_condition ?? '?') ?? 0) + 1);
    strata.set(a.stratum ?? '?', counts);
  }
  for (const [stratum, counts] of [...strata].sort()) {
    const values = CONDITIONS.map((c) => counts.get(c) ?? 0);
    const unknown = [...counts.keys()].filter((c) => !(CONDITIONS as readonly string[]).includes(c));
    const spread = Math.max(...values) - Math.min(...values);
    check(
      `randomisation balanced in stratum ${stratum}`,
      unknown.length === 0 && spread <= PER_CONDITION_IN_BLOCK,
      CONDITIONS.map((c, i) => `${c} ${values[i]}`).join(', ') +
        (unknown.length ? `, unknown ${unknown.join(' ')}` : ''),
    );
  }

  const slots = await db
    .selectFrom('allocation_slots')
    .select(['assignment_id'])
    .where('experiment_id', '=', experimentId)
    .where('assignment_id', 'is not', null)
    .execute();
  const slotOwners = new Set(slots.map((s) => s.assignment_id));
  check(
    'one allocation slot per assigned participant',
    slots.length === assigned.length && slotOwners.size === assigned.length,
    `${slots.length} slots claimed by ${slotOwners.size} of ${assigned.length} assigned participants`,
  );

  const surveys = await db
    .selectFrom('survey_responses')
    .select(['user_id', 'survey_type'])
    .where('experiment_id', '=', experimentId)
    .execute();
  const surveyKeys = new Set(surveys.map((s) => `${s.user_id}:${s.survey_type}`));
  const surveysOk =
    surveys.length === assignments.length * SURVEYS.length &&
    assignments.every((a) => SURVEYS.every((t) => surveyKeys.has(`${a.user_id}:${t}`)));
  check('four surveys each, once', surveysOk, `${surveys.length} responses`);

  const views = await db
    .selectFrom('section_views')
    .select(['assignment_id', 'finished_at'])
    .where('experiment_id', '=', experimentId)
    .execute();
  const finished = views.filter((v) => v.finished_at !== null).length;
  check('four sections read each', finished === assignments.length * 4, `${finished} finished of ${views.length}`);

  const messages = await db
    .selectFrom('chat_messages')
    .innerJoin('chat_threads', 'chat_threads.id', 'chat_messages.thread_id')
    .select(['chat_threads.user_id', 'chat_messages.role', 'chat_messages.status'])
    .where('chat_threads.experiment_id', '=', experimentId)
    .execute();
  const threads = await db
    .selectFrom('chat_threads')
    .select(['id'])
    .where('experiment_id', '=', experimentId)
    .execute();
  const complete = messages.filter((m) => m.status === 'complete');
  check(
    'one chat each: opening, three questions, three replies, all complete',
    threads.length === assignments.length &&
      complete.length === messages.length &&
      messages.length === assignments.length * 7,
    `${threads.length} threads, ${messages.length} messages, ${messages.length - complete.length} not complete`,
  );

  const outOfOrder = await db
    .selectFrom('journey_events')
    .select(['type'])
    .where('experiment_id', '=', experimentId)
    .where('type', '=', 'out_of_order')
    .execute();
  check('no write refused as out of order', outOfOrder.length === 0, `${outOfOrder.length} refused`);
  return checks;
}
