import type { CsvColumn, CsvType } from './csv.js';

// datapackage.json: a Frictionless Data Package (https://specs.frictionlessdata.io/data-package/) whose
// resources carry Table Schemas generated from the same column lists that write the files.

const FIELD_TYPES: Record<CsvType, { type: string; format?: string }> = {
  text: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'datetime', format: 'any' },
  json: { type: 'string' },
};

export interface TableSchemaField {
  name: string;
  type: string;
  format?: string;
  description: string;
  trueValues?: string[];
  falseValues?: string[];
  constraints?: { enum?: string[]; minimum?: number; maximum?: number };
}

export function tableSchemaField(column: CsvColumn<never>): TableSchemaField {
  const field: TableSchemaField = { name: column.name, ...FIELD_TYPES[column.type], description: column.meaning };
  if (column.type === 'boolean') {
    field.trueValues = ['TRUE'];
    field.falseValues = ['FALSE'];
  }
  const constraints: NonNullable<TableSchemaField['constraints']> = {};
  if (column.enum) constraints.enum = [...column.enum];
  if (column.minimum !== undefined) constraints.minimum = column.minimum;
  if (column.maximum !== undefined) constraints.maximum = column.maximum;
  if (Object.keys(constraints).length > 0) field.constraints = constraints;
  return field;
}

export interface PackageMeta {
  experimentId: string;
  experimentName: string;
  exportedAt: string;
  productVersion: string;
  studyId: string;
  studyContentSha256: string;
  /** Whether test runs ("preview as participant", is_test) are in the files (`?include_tests=true`). */
  includesTestRuns: boolean;
  /** The study versions in the files (participants.csv's study_version_id) and the pinned one. */
  studyVersions: { id: string; label: string; studyId: string; contentSha256: string; pinned: boolean }[];
}

/** The descriptor: one tabular resource per CSV file, every field typed, only the empty field missing. */
export function dataPackageDescriptor(
  meta: PackageMeta,
  files: readonly { path: string; description: string; columns: readonly CsvColumn<never>[] }[],
): object {
  return {
    profile: 'tabular-data-package',
    name: `studychat-experiment-${meta.experimentId}`,
    title: meta.experimentName,
    created: meta.exportedAt,
    studychat: {
      experiment_id: meta.experimentId,
      exported_at: meta.exportedAt,
      product_version: meta.productVersion,
      study_id: meta.studyId,
      study_content_sha256: meta.studyContentSha256,
      snapshot: 'every file was read in one database read transaction',
      includes_test_runs: meta.includesTestRuns,
      study_versions: meta.studyVersions.map((v) => ({
        id: v.id,
        label: v.label,
        study_id: v.studyId,
        content_sha256: v.contentSha256,
        pinned: v.pinned,
      })),
    },
    resources: files.map((file) => ({
      profile: 'tabular-data-resource',
      name: file.path.replace(/\.csv$/, '').replaceAll('_', '-'),
      path: file.path,
      description: file.description,
      format: 'csv',
      mediatype: 'text/csv',
      encoding: 'utf-8',
      dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
      schema: { fields: file.columns.map(tableSchemaField), missingValues: [''] },
    })),
  };
}
