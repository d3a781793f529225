import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { testRunUsers } from './analytics.repository.js';

// Reads only the data package needs: every section view (unfinished ones too) and the journey event log.

export interface SectionViewExportRow {
  user_id: string;
  section_index: number;
  section_id: string;
  min_seconds: number;
  opened_at: Date | string;
  finished_at: Date | string | null;
  visible_seconds: number | string | null;
  hidden_seconds: number | string | null;
}

export function listSectionViewsOf(
  db: Kysely<DB>,
  experimentId: string,
  userIds: readonly string[],
): Promise<SectionViewExportRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('section_views')
    .where('experiment_id', '=', experimentId)
    .where('user_id', 'in', [...userIds])
    .select([
      'user_id',
      'section_index',
      'section_id',
      'min_seconds',
      'opened_at',
      'finished_at',
      'visible_seconds',
      'hidden_seconds',
    ])
    .orderBy('user_id')
    .orderBy('section_index')
    .execute();
}

export interface StepEventRow {
  user_id: string;
  type: string;
  created_at: Date | string;
}

/** The given participants' accepted step events, in log order. */
export function listStepEventsOf(
  db: Kysely<DB>,
  experimentId: string,
  userIds: readonly string[],
  types: readonly string[],
): Promise<StepEventRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('journey_events')
    .where('experiment_id', '=', experimentId)
    .where('user_id', 'in', [...userIds])
    .where('type', 'in', [...types])
    .select(['user_id', 'type', 'created_at'])
    .orderBy('seq')
    .execute();
}

export interface EventExportRow {
  seq: number | string;
  experiment_id: string;
  user_id: string;
  prolific_pid: string | null;
  type: string;
  step: string;
  data: string | null;
  created_at: Date | string;
}

/** One page of the experiment's event log, after the given position. */
export function pageEvents(
  db: Kysely<DB>,
  experimentId: string,
  after: number | null,
  limit: number,
  includeTests = false,
): Promise<EventExportRow[]> {
  let query = db
    .selectFrom('journey_events as e')
    .leftJoin('assignments as a', (join) =>
      join.onRef('a.user_id', '=', 'e.user_id').onRef('a.experiment_id', '=', 'e.experiment_id'),
    )
    .where('e.experiment_id', '=', experimentId)
    .select(['e.seq', 'e.experiment_id', 'e.user_id', 'a.prolific_pid', 'e.type', 'e.step', 'e.data', 'e.created_at']);
  if (!includeTests) query = query.where('e.user_id', 'not in', testRunUsers(db, experimentId));
  if (after !== null) query = query.where('e.seq', '>', after);
  return query.orderBy('e.seq').limit(limit).execute();
}
