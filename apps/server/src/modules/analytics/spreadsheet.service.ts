import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { studyDefinition, type ParticipantStatusName, type StudyDefinition } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { statusByUser } from '../monitor/monitor.service.js';
import { notFound } from '../../lib/errors.js';
import { experimentExists } from './analytics.repository.js';
import type { DB } from '../../db/schema.js';
import { CODEBOOK_COLUMNS } from './codebook.js';
import type { CsvColumn } from './csv.js';
import { SURVEY_COLUMNS, messageColumns, participantColumns } from './export-columns.js';
import { codebookRecords, messageRecords, participantRecords, surveyRecords } from './export.service.js';
import { spreadsheetCell } from './spreadsheet-cell.js';

interface Sheet<Row> {
  name: string;
  columns: readonly CsvColumn<Row>[];
  pages: () => AsyncIterable<Row[]>;
}

function sheet<Row>(name: string, columns: readonly CsvColumn<Row>[], pages: () => AsyncIterable<Row[]>) {
  return { name, columns, pages } as Sheet<unknown>;
}

async function writeWorkbook(stream: PassThrough, sheets: readonly Sheet<unknown>[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  for (const { name, columns, pages } of sheets) {
    const worksheet = workbook.addWorksheet(name);
    worksheet.addRow(columns.map((c) => c.name)).commit();
    for await (const page of pages()) {
      for (const record of page)
        worksheet.addRow(columns.map((c) => spreadsheetCell(c.value(record), c.type))).commit();
    }
    worksheet.commit();
  }
  await workbook.commit();
}

/**
 * The spreadsheet-safe copy: one workbook with a sheet per export file (the same column lists), written
 * as a stream. A failure part way ends the stream with the error (the client sees a broken download).
 */
export function spreadsheetWorkbook(
  db: Kysely<DB>,
  experimentId: string,
  statuses?: Map<string, ParticipantStatusName>,
  includeTests = false,
  study: StudyDefinition = studyDefinition,
): Readable {
  const stream = new PassThrough();
  const sheets = [
    sheet('participants', participantColumns(study), () =>
      participantRecords(db, experimentId, { statuses, includeTests, study }),
    ),
    sheet('messages', messageColumns(study), () => messageRecords(db, experimentId, undefined, includeTests)),
    sheet('surveys', SURVEY_COLUMNS, () => surveyRecords(db, experimentId, undefined, includeTests)),
    sheet('codebook', CODEBOOK_COLUMNS, () => codebookRecords(study)),
  ];
  writeWorkbook(stream, sheets).catch((error: unknown) => stream.destroy(error as Error));
  return stream;
}

/** The .xlsx download of an experiment; unknown experiment: 404 before anything is sent. */
export async function exportSpreadsheet(
  deps: AppDeps,
  experimentId: string,
  includeTests = false,
): Promise<{ filename: string; body: Readable }> {
  if (!(await experimentExists(deps.database.db, experimentId))) throw notFound('Experiment not found');
  const statuses = await statusByUser(deps, experimentId);
  const study = await deps.studies(experimentId);
  return {
    filename: `experiment-${experimentId}-spreadsheet-safe.xlsx`,
    body: spreadsheetWorkbook(deps.database.db, experimentId, statuses, includeTests, study),
  };
}
