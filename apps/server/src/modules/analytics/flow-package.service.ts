import { createHash } from 'node:crypto';
import type { FlowDefinition } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import { readSnapshot } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { CODEBOOK_COLUMNS, codebookEntries } from './codebook.js';
import { csvHeader, csvRow, type CsvColumn } from './csv.js';
import { dataPackageDescriptor, type PackageMeta } from './datapackage.js';
import { messageColumns } from './export-columns.js';
import { csvOf, messageRecords } from './export.service.js';
import { FLOW_STEP_COLUMNS, flowParticipantColumns, flowRecordsOf } from './flow-columns.js';
import { flowParticipantPages } from './flow-package.repository.js';
import { EVENT_COLUMNS } from './package-columns.js';
import { eventRecords } from './package-records.js';
import { zipEntries } from './zip.js';
import { WAVE_COLUMNS, WAVES_DESCRIPTION, WAVES_FILE, waveRecords } from './waves-file.js';
import { PRODUCT_VERSION } from './product-version.js';

// The data package of a study written as a flow (issue 30): participants.csv with a column per question key
// typed by its question, steps.csv (one row per step done, with when it was reached), messages.csv and
// events.csv as for the built-in study, the study definition itself (study.json), a codebook of every column of
// every file (its own included) and datapackage.json; all read in one snapshot.

const PAGE = { participants: 1000, threads: 1000, events: 10_000 } as const;

const DESCRIPTIONS: Record<string, string> = {
  'participants.csv': 'One row per participant: their path through the flow and every answer',
  'steps.csv': 'One row per step a participant did (pages, questions pages, AI texts), by the server clock',
  'messages.csv': 'One row per chat message',
  'events.csv': 'The journey event log: one row per event',
  [WAVES_FILE]: WAVES_DESCRIPTION,
  'codebook.csv': 'Every column of every file (this one included): type, meaning, allowed values',
};

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function* participantAndStepTexts(
  trx: Kysely<DB>,
  flow: FlowDefinition,
  experimentId: string,
  includeTests: boolean,
  which: 'participants' | 'steps',
  now: number,
): AsyncGenerator<string> {
  const participantColumns = flowParticipantColumns(flow);
  yield which === 'participants' ? csvHeader(participantColumns) : csvHeader(FLOW_STEP_COLUMNS);
  for await (const page of flowParticipantPages(trx, experimentId, PAGE.participants, includeTests)) {
    let text = '';
    for (const rows of page) {
      const { participant, steps } = flowRecordsOf(flow, rows, now);
      if (which === 'participants') text += csvRow(participantColumns, participant);
      else for (const step of steps) text += csvRow(FLOW_STEP_COLUMNS, step);
    }
    yield text;
  }
}

/** The package of an experiment whose pinned study is a flow. */
export async function exportFlowPackage(
  deps: AppDeps,
  experiment: { id: string; name: string; study_version_id: string | null },
  flow: FlowDefinition,
  includeTests: boolean,
  waves: readonly { experimentId: string; wave: number }[] | null = null,
): Promise<{ filename: string; body: Buffer }> {
  const now = deps.clock().getTime();
  const exportedAt = new Date(now).toISOString();
  const studyJson = JSON.stringify(flow, null, 2);
  const study = { conditionList: flow.conditions };
  const columns: Record<string, readonly CsvColumn<never>[]> = {
    'participants.csv': flowParticipantColumns(flow) as readonly CsvColumn<never>[],
    'steps.csv': FLOW_STEP_COLUMNS as readonly CsvColumn<never>[],
    'messages.csv': messageColumns(study) as readonly CsvColumn<never>[],
    'events.csv': EVENT_COLUMNS as readonly CsvColumn<never>[],
    ...(waves ? { [WAVES_FILE]: WAVE_COLUMNS as readonly CsvColumn<never>[] } : {}),
    'codebook.csv': CODEBOOK_COLUMNS as readonly CsvColumn<never>[],
  };
  const meta: PackageMeta = {
    experimentId: experiment.id,
    experimentName: experiment.name,
    exportedAt,
    productVersion: PRODUCT_VERSION,
    studyId: flow.id,
    studyContentSha256: sha256(JSON.stringify(flow)),
    includesTestRuns: includeTests,
    studyVersions: experiment.study_version_id
      ? [
          {
            id: experiment.study_version_id,
            label: flow.title,
            studyId: flow.id,
            contentSha256: sha256(JSON.stringify(flow)),
            pinned: true,
          },
        ]
      : [],
  };
  const files = Object.entries(columns).map(([path, cols]) => ({
    path,
    description: DESCRIPTIONS[path] ?? path,
    columns: cols,
  }));
  const body = await readSnapshot(deps.database.db, (trx) =>
    zipEntries([
      ['participants.csv', () => participantAndStepTexts(trx, flow, experiment.id, includeTests, 'participants', now)],
      ['steps.csv', () => participantAndStepTexts(trx, flow, experiment.id, includeTests, 'steps', now)],
      [
        'messages.csv',
        () => csvOf(messageColumns(study), messageRecords(trx, experiment.id, PAGE.threads, includeTests)),
      ],
      ['events.csv', () => csvOf(EVENT_COLUMNS, eventRecords(trx, experiment.id, PAGE.events, includeTests))],
      ...(waves
        ? [
            [WAVES_FILE, () => csvOf(WAVE_COLUMNS, waveRecords(trx, experiment.id, waves, includeTests))] as [
              string,
              () => AsyncGenerator<string>,
            ],
          ]
        : []),
      [
        'codebook.csv',
        () =>
          csvOf(
            CODEBOOK_COLUMNS,
            (async function* () {
              yield codebookEntries(columns);
            })(),
          ),
      ],
      [
        'study.json',
        async function* () {
          yield studyJson;
        },
      ],
      [
        'datapackage.json',
        async function* () {
          yield JSON.stringify(dataPackageDescriptor(meta, files), null, 2);
        },
      ],
    ]),
  );
  const stamp = exportedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return { filename: `experiment-${experiment.id}-data-package-${stamp}.zip`, body };
}
