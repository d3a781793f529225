import { EXPORT_FILES, buildPath, endpoints, type ExportFile } from '@studychat/contracts/web';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { downloadWithToken } from '../../../lib/download';
import { errorText } from '../format';

const DESCRIPTIONS: Record<ExportFile, string> = {
  'participants.csv': 'One row per participant: condition, intentions, chat engagement, completion.',
  'messages.csv': 'Every chat message with model, tokens and cost.',
  'surveys.csv': 'Every survey response.',
  'codebook.csv': 'What each column of the other files means.',
};

interface Download {
  file: string;
  description: string;
  url: (experimentId: string) => string;
}

const CSV_DOWNLOADS: Download[] = EXPORT_FILES.map((file) => ({
  file,
  description: DESCRIPTIONS[file],
  url: (id) => buildPath(endpoints.experiments.exportFile.path, { id, file }),
}));

const DATA_PACKAGE: Download = {
  file: 'data-package.zip',
  description:
    'Everything in one snapshot: participants, messages, surveys, page times, the event log, the codebook and datapackage.json (column types and allowed values). Recommended for analysis.',
  url: (id) => buildPath(endpoints.experiments.exportPackage.path, { id }),
};

const TRANSCRIPTS: Download = {
  file: 'transcripts-redacted.csv',
  description:
    'Chat transcripts for sharing: emails, phone numbers and introduced names replaced, participants numbered, no ids. Best effort: read before sharing.',
  url: (id) => buildPath(endpoints.experiments.exportTranscripts.path, { id }),
};

const SPREADSHEET: Download = {
  file: 'spreadsheet-safe.xlsx',
  description:
    'The same data as a workbook for viewing in a spreadsheet: text that could run as a formula starts with an added apostrophe, so it is not exact. Not for analysis.',
  url: (id) => buildPath(endpoints.experiments.exportSpreadsheet.path, { id }),
};

type FileState =
  { status: 'idle' } | { status: 'busy' } | { status: 'done'; name: string } | { status: 'error'; message: string };

/** Test runs ("preview as participant") are left out of every download unless asked for (decision 0027). */
export function withTestRuns(url: string, include: boolean): string {
  return include ? `${url}?include_tests=true` : url;
}

/** Download buttons for the export files (fetched with the token, saved as a Blob). */
export function ExportsPanel({
  experimentId,
  packageOnly = false,
}: {
  experimentId: string;
  /** A study written as a flow (issue 30): its data is the package, shaped by the flow. */
  packageOnly?: boolean;
}) {
  const [states, setStates] = useState<Partial<Record<string, FileState>>>({});
  const [includeTests, setIncludeTests] = useState(false);
  const setState = (file: string, state: FileState) => setStates((s) => ({ ...s, [file]: state }));

  async function download({ file, url }: Download) {
    setState(file, { status: 'busy' });
    try {
      const name = await downloadWithToken(
        withTestRuns(url(experimentId), includeTests),
        `experiment-${experimentId.slice(0, 8)}-${file}`,
      );
      setState(file, { status: 'done', name });
    } catch (error) {
      setState(file, { status: 'error', message: errorText(error) });
    }
  }

  function item(entry: Download) {
    const state = states[entry.file] ?? { status: 'idle' };
    return (
      <li key={entry.file} className="rounded-lg border border-slate-200 p-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="font-mono text-sm font-semibold text-slate-900">{entry.file}</span>
          <Button
            variant="secondary"
            onClick={() => void download(entry)}
            disabled={state.status === 'busy'}
            aria-label={`Download ${entry.file}`}
          >
            {state.status === 'busy' ? 'Downloading...' : 'Download'}
          </Button>
        </div>
        <p className="mt-1 text-sm text-slate-600">{entry.description}</p>
        {state.status === 'done' && (
          <p role="status" className="mt-1 text-sm text-green-700">
            Saved {state.name}
          </p>
        )}
        {state.status === 'error' && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            Download failed: {state.message}
          </p>
        )}
      </li>
    );
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Export Data</h2>
      <p className="mt-1 text-sm text-slate-600">
        CSV files for analysis (UTF-8, comma separated, one header line, text exactly as stored), ready for R or pandas.
      </p>
      <label className="mt-3 flex min-h-11 items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={includeTests}
          onChange={(e) => setIncludeTests(e.target.checked)}
        />
        Include test runs (preview as participant); they are left out by default and flagged is_test
      </label>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">{item(DATA_PACKAGE)}</ul>
      {!packageOnly && (
        <>
          <h3 className="mt-4 text-base font-semibold text-slate-900">Single files</h3>
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">{CSV_DOWNLOADS.map(item)}</ul>
          <h3 className="mt-4 text-base font-semibold text-slate-900">For a spreadsheet</h3>
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">{item(SPREADSHEET)}</ul>
          <h3 className="mt-4 text-base font-semibold text-slate-900">For sharing</h3>
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">{item(TRANSCRIPTS)}</ul>
        </>
      )}
    </Card>
  );
}
