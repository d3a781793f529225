import { sql, type Kysely } from 'kysely';
import { byteOrder } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { toIsoOrNull } from '../../db/values.js';
import type { CsvColumn } from './csv.js';

// waves.csv of the data package (issue 33, docs/decisions/0091): when the experiment is a wave of a study with
// follow-up waves, one row per Prolific id of this experiment and wave it took part in, so the waves join by
// Prolific id without the researcher matching them by hand. Absent from the package of an experiment without waves.

export const WAVES_FILE = 'waves.csv';
export const WAVES_DESCRIPTION =
  'One row per Prolific id of this experiment and wave of the study it took part in (this one included): joins the waves by Prolific id';

export interface WaveRecord {
  prolificPid: string;
  wave: number;
  experimentId: string;
  thisExperiment: boolean;
  userId: string;
  assignmentId: string;
  condition: string | null;
  pathway: string | null;
  completedAt: string | null;
}

export const WAVE_COLUMNS: readonly CsvColumn<WaveRecord>[] = [
  {
    name: 'prolific_pid',
    type: 'text',
    meaning: 'Prolific participant id: the key that joins the waves',
    value: (r) => r.prolificPid,
  },
  {
    name: 'wave',
    type: 'integer',
    meaning: 'Which wave of the study, from 1 (the first)',
    allowed: '>= 1',
    minimum: 1,
    value: (r) => r.wave,
  },
  { name: 'experiment_id', type: 'text', meaning: "The wave's experiment id", value: (r) => r.experimentId },
  {
    name: 'this_experiment',
    type: 'boolean',
    meaning: "TRUE for this package's own experiment (its rows join participants.csv by user_id)",
    value: (r) => r.thisExperiment,
  },
  { name: 'user_id', type: 'text', meaning: 'The study login (user) id in that wave', value: (r) => r.userId },
  { name: 'assignment_id', type: 'text', meaning: 'The assignment id in that wave', value: (r) => r.assignmentId },
  {
    name: 'condition',
    type: 'text',
    meaning: 'The condition assigned in that wave; empty if none',
    value: (r) => r.condition,
  },
  {
    name: 'completion_pathway',
    type: 'text',
    meaning: 'How that wave ended for them (its pathway); empty if it did not end',
    value: (r) => r.pathway,
  },
  {
    name: 'completed_at',
    type: 'timestamp',
    meaning: 'When that wave ended for them (UTC, ISO 8601); empty if it did not end',
    value: (r) => r.completedAt,
  },
];

const PAGE = 1000;

/**
 * The rows of waves.csv, a page at a time: for each Prolific id of this experiment's participants (test runs only
 * with `includeTests`), its assignment in every wave, ordered by id and wave.
 */
export async function* waveRecords(
  trx: Kysely<DB>,
  experimentId: string,
  waves: readonly { experimentId: string; wave: number }[],
  includeTests: boolean,
): AsyncGenerator<WaveRecord[]> {
  const waveOf = new Map(waves.map((w) => [w.experimentId, w.wave]));
  // Byte order on both databases, so pages follow one another and the rows sort alike everywhere.
  const pid = byteOrder(trx, sql.ref('prolific_pid'));
  let after = '';
  for (;;) {
    const pids = (
      await trx
        .selectFrom('assignments')
        .select('prolific_pid')
        .where('experiment_id', '=', experimentId)
        .where('prolific_pid', 'is not', null)
        .where(sql<boolean>`${pid} > ${after}`)
        .$if(!includeTests, (q) => q.where('is_test', '=', false))
        .groupBy('prolific_pid')
        .orderBy(pid)
        .limit(PAGE)
        .execute()
    ).flatMap((r) => (r.prolific_pid ? [r.prolific_pid] : []));
    if (pids.length === 0) return;
    const rows = await trx
      .selectFrom('assignments')
      .select([
        'prolific_pid',
        'experiment_id',
        'user_id',
        'id',
        'assigned_condition',
        'completion_pathway',
        'completed_at',
      ])
      .where('prolific_pid', 'in', pids)
      .where('experiment_id', 'in', [...waveOf.keys()])
      .$if(!includeTests, (q) => q.where('is_test', '=', false))
      .execute();
    yield rows
      .map((r) => ({
        prolificPid: r.prolific_pid ?? '',
        wave: waveOf.get(r.experiment_id) ?? 0,
        experimentId: r.experiment_id,
        thisExperiment: r.experiment_id === experimentId,
        userId: r.user_id,
        assignmentId: r.id,
        condition: r.assigned_condition,
        pathway: r.completion_pathway,
        completedAt: toIsoOrNull(r.completed_at),
      }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.prolificPid), Buffer.from(b.prolificPid)) || a.wave - b.wave);
    after = pids[pids.length - 1] ?? after;
  }
}
