import { findExperiment } from '../experiments/experiments.service.js';
import { createHash } from 'node:crypto';
import type { ParticipantStatusName, StudyDefinition } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import { readSnapshot } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { statusByUser } from '../monitor/monitor.service.js';
import { notFound } from '../../lib/errors.js';
import { CODEBOOK_COLUMNS, codebookEntries } from './codebook.js';
import type { CsvColumn } from './csv.js';
import { dataPackageDescriptor, type PackageMeta } from './datapackage.js';
import { SURVEY_COLUMNS, messageColumns, participantColumns, surveyColumns } from './export-columns.js';
import { csvOf, messageRecords, participantRecords, surveyRecords } from './export.service.js';
import { EVENT_COLUMNS, PAGE_TIME_COLUMNS } from './package-columns.js';
import { eventRecords, pageTimeRecords } from './package-records.js';
import { listExportedStudyVersions } from './package.repository.js';
import { zipEntries } from './zip.js';
import { PRODUCT_VERSION } from './product-version.js';
import { exportFlowPackage } from './flow-package.service.js';
import { WAVE_COLUMNS, WAVES_DESCRIPTION, WAVES_FILE, waveRecords } from './waves-file.js';
import { wavesOfStudy } from '../waves/waves.service.js';

type Waves = Awaited<ReturnType<typeof wavesOfStudy>>;

// The data package: every analysis file of an experiment in one ZIP, read in ONE read transaction, so the
// files are one snapshot (a participant writing meanwhile is in all of them or in none). The package is
// built in memory inside the transaction (one file's text at a time, then compressed; a few MB for thousands of participants)
// and sent after the transaction ends, so no database connection waits on a slow download.

/** SHA-256 of a study definition as JSON: the same for the pinned study and its study_versions row. */
function studyContentSha256(study: StudyDefinition): string {
  return createHash('sha256').update(JSON.stringify(study)).digest('hex');
}

/** Larger pages than the streamed CSVs: inside one transaction fewer, larger reads are faster. */
const PAGE = { participants: 2000, threads: 1000, surveys: 5000, events: 10_000 } as const;

/** The package's data files for the study version the experiment pins (participants.csv's sections follow it). */
function packageFileColumns(study: StudyDefinition) {
  return {
    'participants.csv': participantColumns(study),
    'messages.csv': messageColumns(study),
    'surveys.csv': surveyColumns(study),
    'page_times.csv': PAGE_TIME_COLUMNS,
    'events.csv': EVENT_COLUMNS,
  } as const;
}
type PackageDataFile = keyof ReturnType<typeof packageFileColumns>;

const DESCRIPTIONS: Record<PackageDataFile | 'codebook.csv', string> = {
  'participants.csv': 'One row per participant',
  'messages.csv': 'One row per chat message',
  'surveys.csv': 'One row per survey answer (long format)',
  'page_times.csv': 'One row per participant and timed step or static section, by the server clock',
  'events.csv': 'The journey event log: one row per event',
  'codebook.csv': 'Every column of the other files: type, meaning, allowed values',
};

function fileSources(
  trx: Kysely<DB>,
  experimentId: string,
  statuses: Map<string, ParticipantStatusName>,
  includeTests: boolean,
  study: StudyDefinition,
  waves: Waves,
): [string, () => AsyncGenerator<string>][] {
  const columns = packageFileColumns(study);
  const codebook = codebookEntries(
    waves ? { ...columns, [WAVES_FILE]: WAVE_COLUMNS as readonly CsvColumn<never>[] } : columns,
  );
  const withTests = includeTests;
  const participantOptions = { pageSize: PAGE.participants, statuses, includeTests, study };
  return [
    [
      'participants.csv',
      () => csvOf(columns['participants.csv'], participantRecords(trx, experimentId, participantOptions)),
    ],
    ['messages.csv', () => csvOf(columns['messages.csv'], messageRecords(trx, experimentId, PAGE.threads, withTests))],
    ['surveys.csv', () => csvOf(SURVEY_COLUMNS, surveyRecords(trx, experimentId, PAGE.surveys, withTests))],
    [
      'page_times.csv',
      () => csvOf(PAGE_TIME_COLUMNS, pageTimeRecords(trx, experimentId, PAGE.participants, withTests)),
    ],
    ['events.csv', () => csvOf(EVENT_COLUMNS, eventRecords(trx, experimentId, PAGE.events, withTests))],
    ...(waves
      ? [
          [WAVES_FILE, () => csvOf(WAVE_COLUMNS, waveRecords(trx, experimentId, waves, withTests))] as [
            string,
            () => AsyncGenerator<string>,
          ],
        ]
      : []),
    [
      'codebook.csv',
      async function* () {
        yield* csvOf(
          CODEBOOK_COLUMNS,
          (async function* () {
            yield codebook;
          })(),
        );
      },
    ],
  ];
}

async function zipFiles(
  trx: Kysely<DB>,
  experimentId: string,
  statuses: Map<string, ParticipantStatusName>,
  includeTests: boolean,
  study: StudyDefinition,
  waves: Waves,
  descriptor: () => string,
): Promise<Buffer> {
  return zipEntries([
    ...fileSources(trx, experimentId, statuses, includeTests, study, waves),
    [
      'datapackage.json',
      async function* () {
        yield descriptor();
      },
    ],
  ]);
}

/** The package of an experiment; test runs (is_test) only with `includeTests` (docs/decisions/0027). */
export async function exportPackage(
  deps: AppDeps,
  experimentId: string,
  includeTests = false,
): Promise<{ filename: string; body: Buffer }> {
  const { database } = deps;
  const experiment = await findExperiment(deps, experimentId);
  if (!experiment) throw notFound('Experiment not found');
  // A study written as a flow has a package of its own shape (issue 30).
  // The study's waves, if it has follow-up waves (fixed once participants joined, so read before the snapshot).
  const waves = await wavesOfStudy(deps, experimentId);
  const flow = await deps.flows(experimentId);
  if (flow) return exportFlowPackage(deps, experiment, flow, includeTests, waves);
  const study = await deps.studies(experimentId);
  const exportedAt = deps.clock().toISOString();
  const meta: PackageMeta = {
    experimentId,
    experimentName: experiment.name,
    exportedAt,
    productVersion: PRODUCT_VERSION,
    studyId: study.id,
    studyContentSha256: studyContentSha256(study),
    includesTestRuns: includeTests,
    studyVersions: [],
  };
  const files = [
    ...Object.entries(packageFileColumns(study)).map(([path, columns]) => ({
      path,
      description: DESCRIPTIONS[path as PackageDataFile],
      columns: columns as readonly CsvColumn<never>[],
    })),
    ...(waves
      ? [{ path: WAVES_FILE, description: WAVES_DESCRIPTION, columns: WAVE_COLUMNS as readonly CsvColumn<never>[] }]
      : []),
    {
      path: 'codebook.csv',
      description: DESCRIPTIONS['codebook.csv'],
      columns: CODEBOOK_COLUMNS as readonly CsvColumn<never>[],
    },
  ];
  const body = await readSnapshot(database.db, async (trx) => {
    // The monitor's status, read in the same snapshot, with the study already loaded: a study source that
    // read the database outside the snapshot would wait forever for SQLite's one connection, held here.
    const inTrx = { ...deps, database: { ...database, db: trx }, studies: () => Promise.resolve(study) };
    const statuses = await statusByUser(inTrx, experimentId);
    // The versions the experiment pins and its exported participants ran under, with their content hashes.
    meta.studyVersions = (await listExportedStudyVersions(trx, experimentId, includeTests)).map((v) => ({
      id: v.id,
      label: v.label,
      studyId: v.study.id,
      contentSha256: studyContentSha256(v.study),
      pinned: v.id === experiment.study_version_id,
    }));
    return zipFiles(trx, experimentId, statuses, includeTests, study, waves, () =>
      JSON.stringify(dataPackageDescriptor(meta, files), null, 2),
    );
  });
  const stamp = exportedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return { filename: `experiment-${experimentId}-data-package-${stamp}.zip`, body };
}
