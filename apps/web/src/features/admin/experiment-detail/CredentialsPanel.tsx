import { CREDENTIAL_COUNT_DEFAULT, type GeneratedCredential } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { COPY_FAILED_TEXT, CopyButton } from '../../../components/CopyButton';
import { TH_CLASS } from '../../../components/SortableHeader';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { useTimedFlag } from '../../../components/use-timed-flag';
import { copyText } from '../../../lib/clipboard';
import { downloadText } from '../../../lib/download';
import { errorText } from '../format';
import {
  credentialCountError,
  credentialsCsv,
  parseCredentialCount,
  parseSparePercent,
  prolificCredentialsCsv,
  prolificCsvName,
  SPARE_PERCENT_MAX,
  withSpares,
} from './credentials';
import { useGenerateCredentials } from './use-experiment-detail';

export const CSV_COPIED_TEXT = 'Credentials copied to clipboard as CSV!';
/** How long the CSV confirmation shows (spec section 9). */
export const CSV_CONFIRM_MS = 3000;

const INPUT_CLASS =
  'mt-1 block min-h-11 w-32 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/40 focus:outline-none';

/**
 * 'Generate Participant Credentials': a batch of study logins (plus an optional share of spares), shown
 * once, with copy buttons and a download in Prolific's credentials format. Passwords exist only here:
 * the server keeps hashes, so this batch can be downloaded for Prolific now or never.
 */
export function CredentialsPanel({ experimentId }: { experimentId: string }) {
  const generate = useGenerateCredentials(experimentId);
  const [countInput, setCountInput] = useState(String(CREDENTIAL_COUNT_DEFAULT));
  const [spareInput, setSpareInput] = useState('0');
  const [validationError, setValidationError] = useState<string | null>(null);
  const [credentials, setCredentials] = useState<GeneratedCredential[]>([]);
  const count = parseCredentialCount(countInput);
  const spares = withSpares(count, parseSparePercent(spareInput)) - count;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (generate.isPending) return;
    const problem = credentialCountError(count);
    setValidationError(problem);
    if (problem) return;
    generate.mutate(count + spares, { onSuccess: setCredentials });
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Generate Participant Credentials</h2>
      <form noValidate onSubmit={handleSubmit} className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="credential-count" className="block text-sm font-medium text-slate-800">
            Number of credentials
          </label>
          <input
            id="credential-count"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={countInput}
            onChange={(e) => setCountInput(e.target.value)}
            className={INPUT_CLASS}
          />
        </div>
        <div>
          <label htmlFor="credential-spares" className="block text-sm font-medium text-slate-800">
            Spares (%)
          </label>
          <input
            id="credential-spares"
            type="number"
            min={0}
            max={SPARE_PERCENT_MAX}
            step={1}
            inputMode="numeric"
            value={spareInput}
            onChange={(e) => setSpareInput(e.target.value)}
            aria-describedby="credential-spares-hint"
            className={INPUT_CLASS}
          />
        </div>
        <Button type="submit" disabled={generate.isPending}>
          {generate.isPending ? 'Generating...' : 'Generate'}
        </Button>
      </form>
      <p id="credential-spares-hint" className="mt-2 text-sm text-slate-600">
        {spares > 0 && count > 0
          ? `${count + spares} logins: ${count} plus ${spares} ${spares === 1 ? 'spare' : 'spares'} for participants who return the study or time out on Prolific.`
          : 'Spares: extra logins for participants who return the study or time out on Prolific (each newcomer needs a fresh login).'}
      </p>
      {validationError && <Alert className="mt-3">{validationError}</Alert>}
      {generate.isError && <Alert className="mt-3">Failed to generate credentials: {errorText(generate.error)}</Alert>}
      {credentials.length > 0 && <CredentialsResult credentials={credentials} experimentId={experimentId} />}
    </Card>
  );
}

function CredentialsResult({
  credentials,
  experimentId,
}: {
  credentials: GeneratedCredential[];
  experimentId: string;
}) {
  const [csvCopied, flashCsvCopied] = useTimedFlag(CSV_CONFIRM_MS);
  const [csvFailed, setCsvFailed] = useState(false);

  async function copyCsv() {
    const ok = await copyText(credentialsCsv(credentials));
    setCsvFailed(!ok);
    if (ok) flashCsvCopied();
  }

  return (
    <div className="mt-5 space-y-3">
      <Alert tone="warning">
        <strong>Save these now:</strong> passwords are shown only once and cannot be retrieved later.
      </Alert>
      <p className="text-sm text-slate-700">
        For Prolific, download this batch (spares included) and upload the file in your study&apos;s Credentials step:
        one <code>username,password</code> pair per line, no header line. Prolific shows each participant one pair.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-700">
          {credentials.length} {credentials.length === 1 ? 'credential' : 'credentials'} generated
        </p>
        <Button variant="secondary" onClick={() => void copyCsv()}>
          Copy as CSV
        </Button>
        <Button
          variant="secondary"
          onClick={() => downloadText(prolificCsvName(experimentId, new Date()), prolificCredentialsCsv(credentials))}
        >
          Download for Prolific (CSV)
        </Button>
        {csvCopied && (
          <span role="status" className="text-sm font-medium text-green-700">
            {CSV_COPIED_TEXT}
          </span>
        )}
        {csvFailed && (
          <span role="alert" className="text-sm text-red-700">
            {COPY_FAILED_TEXT}
          </span>
        )}
      </div>
      <TableScroll maxHeight="24rem" label="Generated credentials">
        <table className={TABLE_CLASS}>
          <thead>
            <tr>
              <th scope="col" className={TH_CLASS}>
                Username (Email)
              </th>
              <th scope="col" className={TH_CLASS}>
                Password
              </th>
            </tr>
          </thead>
          <tbody>
            {credentials.map((c) => (
              <tr key={c.email}>
                <td className={TD_CLASS}>
                  <span className="inline-flex items-center gap-2">
                    <span className="font-mono">{c.email}</span>
                    <CopyButton text={c.email} label={`Copy username ${c.email}`} />
                  </span>
                </td>
                <td className={TD_CLASS}>
                  <span className="inline-flex items-center gap-2">
                    <span className="font-mono">{c.password}</span>
                    <CopyButton text={c.password} label={`Copy password for ${c.email}`} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
