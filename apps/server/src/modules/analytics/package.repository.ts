import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isFlowDefinition, type StudyDefinition } from '@studychat/contracts';
import { parseDefinition } from '../studies/studies.mapper.js';
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

/**
 * The study versions of an experiment's package: the one it pins and every one its exported participants
 * were stamped with (a participant from before study versions has none: the built-in study).
 */
export async function listExportedStudyVersions(
  db: Kysely<DB>,
  experimentId: string,
  includeTests: boolean,
): Promise<{ id: string; label: string; study: StudyDefinition }[]> {
  let stamped = db
    .selectFrom('assignments')
    .where('experiment_id', '=', experimentId)
    .where('study_version_id', 'is not', null)
    .select('study_version_id as id');
  if (!includeTests) stamped = stamped.where('is_test', '=', false);
  const pinned = db.selectFrom('experiments').where('id', '=', experimentId).select('study_version_id as id');
  const rows = await db
    .selectFrom('study_versions')
    .where((eb) => eb.or([eb('id', 'in', stamped), eb('id', 'in', pinned)]))
    .select(['id', 'label', 'definition'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  // A flow's data is its own download (issue 30); the package reads the versions in the built-in shape.
  return rows.flatMap((r) => {
    const study = parseDefinition(r.definition);
    return isFlowDefinition(study) ? [] : [{ id: r.id, label: r.label, study }];
  });
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

/** The pinned and every stamped study version of an experiment (test runs included), by id. */
export async function studiesById(db: Kysely<DB>, experimentId: string): Promise<Map<string, StudyDefinition>> {
  const versions = await listExportedStudyVersions(db, experimentId, true);
  return new Map(versions.map((v) => [v.id, v.study]));
}
