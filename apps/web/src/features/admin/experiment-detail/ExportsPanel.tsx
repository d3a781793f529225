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

type FileState =
  { status: 'idle' } | { status: 'busy' } | { status: 'done'; name: string } | { status: 'error'; message: string };

/** Download buttons for the four export files (fetched with the token, saved as a Blob). */
export function ExportsPanel({ experimentId }: { experimentId: string }) {
  const [states, setStates] = useState<Partial<Record<ExportFile, FileState>>>({});
  const setState = (file: ExportFile, state: FileState) => setStates((s) => ({ ...s, [file]: state }));

  async function download(file: ExportFile) {
    setState(file, { status: 'busy' });
    try {
      const url = buildPath(endpoints.experiments.exportFile.path, { id: experimentId, file });
      const name = await downloadWithToken(url, `experiment-${experimentId.slice(0, 8)}-${file}`);
      setState(file, { status: 'done', name });
    } catch (error) {
      setState(file, { status: 'error', message: errorText(error) });
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Export Data</h2>
      <p className="mt-1 text-sm text-slate-600">
        CSV files for analysis (UTF-8, comma separated, one header line), ready for R, pandas or a spreadsheet.
      </p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {EXPORT_FILES.map((file) => {
          const state = states[file] ?? { status: 'idle' };
          return (
            <li key={file} className="rounded-lg border border-slate-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono text-sm font-semibold text-slate-900">{file}</span>
                <Button
                  variant="secondary"
                  onClick={() => void download(file)}
                  disabled={state.status === 'busy'}
                  aria-label={`Download ${file}`}
                >
                  {state.status === 'busy' ? 'Downloading...' : 'Download'}
                </Button>
              </div>
              <p className="mt-1 text-sm text-slate-600">{DESCRIPTIONS[file]}</p>
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
        })}
      </ul>
    </Card>
  );
}
