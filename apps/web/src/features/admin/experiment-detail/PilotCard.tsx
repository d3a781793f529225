import {
  PILOT_AGE_GROUPS,
  PILOT_PARTICIPANTS_MAX,
  PILOT_STANCES,
  PILOT_VERBOSITIES,
  TARGET_SAMPLE_SIZE_MAX,
  samplePersonas,
  type PilotPersona,
  type PilotReport,
} from '@studychat/contracts/web';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TableScroll, TD_CLASS, TD_WRAP_CLASS } from '../../../components/TableScroll';
import { TextField } from '../../../components/TextField';
import { Link } from '../../../lib/router';
import { useCanEditExperiment } from '../experiment-role';
import { serverMessage } from '../format';
import { usd } from '../monitor/monitor-view';
import { usePilotRun, usePilotRuns, useStartPilot } from './use-pilots';

const TH = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';
const NUM = `${TD_CLASS} text-right tabular-nums`;
const SELECT =
  'block min-h-11 rounded-lg border border-slate-300 bg-white px-2 py-1 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40';

/** The pilot's size and target sample typed, or why they cannot be used. */
export function pilotInput(
  participants: string,
  target: string,
): { participants: number; target: number } | { error: string; field: 'participants' | 'target' } {
  const n = Number(participants.trim());
  if (participants.trim() === '' || !Number.isInteger(n) || n < 1 || n > PILOT_PARTICIPANTS_MAX)
    return {
      field: 'participants',
      error: `Type a whole number of simulated participants from 1 to ${PILOT_PARTICIPANTS_MAX}.`,
    };
  const t = Number(target.trim());
  if (target.trim() === '' || !Number.isInteger(t) || t < 1 || t > TARGET_SAMPLE_SIZE_MAX)
    return {
      field: 'target',
      error: `Type a whole number of participants from 1 to ${TARGET_SAMPLE_SIZE_MAX.toLocaleString()}.`,
    };
  return { participants: n, target: t };
}

/** Seconds as minutes and seconds ("4 min 05 s"). */
export function duration(seconds: number | null): string {
  if (seconds === null) return '-';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

const tokens = (n: number) => Math.round(n).toLocaleString('en-GB');

function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <TableScroll label={label}>
      <table className={TABLE_CLASS}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={i === 0 ? TH : `${TH} text-right`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

function PersonaEditor({
  personas,
  onChange,
}: {
  personas: PilotPersona[];
  onChange: (personas: PilotPersona[]) => void;
}) {
  const set = (i: number, patch: Partial<PilotPersona>) =>
    onChange(personas.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <Table label="Personas" head={['Persona', 'Age group', 'Stance', 'Verbosity', 'Tendency to leave']}>
      {personas.map((p, i) => (
        <tr key={i} data-testid={`pilot-persona-${i + 1}`}>
          <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
            {i + 1}
          </th>
          <td className={TD_CLASS}>
            <select
              aria-label={`Persona ${i + 1} age group`}
              className={SELECT}
              value={p.ageGroup}
              onChange={(e) => set(i, { ageGroup: e.target.value as PilotPersona['ageGroup'] })}
            >
              {PILOT_AGE_GROUPS.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </td>
          <td className={TD_CLASS}>
            <select
              aria-label={`Persona ${i + 1} stance`}
              className={SELECT}
              value={p.stance}
              onChange={(e) => set(i, { stance: e.target.value as PilotPersona['stance'] })}
            >
              {PILOT_STANCES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </td>
          <td className={TD_CLASS}>
            <select
              aria-label={`Persona ${i + 1} verbosity`}
              className={SELECT}
              value={p.verbosity}
              onChange={(e) => set(i, { verbosity: e.target.value as PilotPersona['verbosity'] })}
            >
              {PILOT_VERBOSITIES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </td>
          <td className={TD_CLASS}>
            <select
              aria-label={`Persona ${i + 1} tendency to leave`}
              className={SELECT}
              value={p.leaveTendency >= 0.5 ? 'likely' : 'unlikely'}
              onChange={(e) => set(i, { leaveTendency: e.target.value === 'likely' ? 0.75 : 0.05 })}
            >
              <option value="unlikely">unlikely</option>
              <option value="likely">likely</option>
            </select>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The report of one run: pathways, arms, steps, participants, warnings and the caveat. */
export function PilotReportView({ report }: { report: PilotReport }) {
  return (
    <div className="space-y-4" data-testid="pilot-report">
      <p className="text-slate-900" data-testid="pilot-summary">
        <strong>
          {report.completed} of {report.participants} simulated participants completed
        </strong>{' '}
        ({report.studyTitle}; seed {report.seed}; the run took {(report.durationMs / 1000).toFixed(1)} s). Chat at{' '}
        {report.targetSample.toLocaleString('en-GB')} participants: {tokens(report.projected.inputTokens)} input and{' '}
        {tokens(report.projected.outputTokens)} output tokens, {usd(report.projected.costUsd)} on this deployment&apos;s
        model.
      </p>
      <Alert tone="info">
        <strong>What a pilot cannot tell: </strong>
        {report.caveat}
      </Alert>
      {report.warnings.length > 0 && (
        <Alert tone="warning">
          <p className="font-semibold">Warnings</p>
          <ul className="mt-1 list-disc pl-5" data-testid="pilot-warnings">
            {report.warnings.map((w) => (
              <li key={`${w.path}-${w.message}`}>{w.message}</li>
            ))}
          </ul>
        </Alert>
      )}
      <h3 className="font-semibold text-slate-900">Pathways</h3>
      <Table label="Pathways reached" head={['Pathway', 'Reached by', 'Why not']}>
        {report.pathways.map((p) => (
          <tr key={p.key} data-testid={`pilot-pathway-${p.key}`}>
            <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
              {p.label} <span className="text-xs text-slate-600">({p.key})</span>
            </th>
            <td className={NUM}>{p.reached}</td>
            <td className={TD_WRAP_CLASS}>{p.why ?? '-'}</td>
          </tr>
        ))}
      </Table>
      <h3 className="font-semibold text-slate-900">Arms</h3>
      <Table
        label="Pilot per arm"
        head={[
          'Arm',
          'Personas',
          'Completed',
          'Chats reaching the rule',
          'Rounds (min / median / max)',
          'Least time',
          'Pilot time (median)',
          'Tokens each (in / out)',
          'Cost each',
          'At the arm’s model',
          `At ${report.targetSample.toLocaleString('en-GB')}: participants`,
          'Tokens (in / out)',
          'Cost',
          'Estimate before launch',
        ]}
      >
        {report.arms.map((a) => (
          <tr key={a.condition} data-testid={`pilot-arm-${a.condition}`}>
            <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
              {a.label}
            </th>
            <td className={NUM}>{a.participants}</td>
            <td className={NUM}>{a.completed}</td>
            <td className={NUM}>
              {a.ruleReached} of {a.chatStarted}
            </td>
            <td className={NUM}>{a.rounds ? `${a.rounds.min} / ${a.rounds.median} / ${a.rounds.max}` : '-'}</td>
            <td className={NUM}>{duration(a.minimumSeconds)}</td>
            <td className={NUM}>{duration(a.simulatedSeconds)}</td>
            <td className={NUM}>
              {tokens(a.perParticipant.inputTokens)} / {tokens(a.perParticipant.outputTokens)}
            </td>
            <td className={NUM}>{usd(a.perParticipant.costUsd)}</td>
            <td className={NUM}>{a.atArmModel ? `${usd(a.atArmModel.costUsd)} (${a.atArmModel.model})` : '-'}</td>
            <td className={NUM}>{Math.round(a.projected.participants * 10) / 10}</td>
            <td className={NUM}>
              {tokens(a.projected.inputTokens)} / {tokens(a.projected.outputTokens)}
            </td>
            <td className={NUM}>{usd(a.projected.costUsd)}</td>
            <td className={NUM}>{usd(a.estimatedCostUsd)}</td>
          </tr>
        ))}
      </Table>
      <h3 className="font-semibold text-slate-900">Time per step</h3>
      <Table
        label="Time per step"
        head={['Step', 'Reached by', 'Least time the server enforces', 'Pilot time (median)']}
      >
        {report.steps.map((s) => (
          <tr key={s.step} data-testid={`pilot-step-${s.step}`}>
            <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
              {s.step}
            </th>
            <td className={NUM}>{s.reached}</td>
            <td className={NUM}>{duration(s.minimumSeconds)}</td>
            <td className={NUM}>{duration(s.simulatedSeconds)}</td>
          </tr>
        ))}
      </Table>
      <h3 className="font-semibold text-slate-900">Simulated participants</h3>
      <p className="text-sm text-slate-700">
        Each is a test run: left out of the monitor, the summaries and the exports unless tests are included. Open one
        to read their answers and transcript.
      </p>
      <Table
        label="Simulated participants"
        head={['Participant', 'Persona', 'Arm', 'Outcome', 'Pilot time', 'Chat rounds', 'Tokens (in / out)', 'Cost']}
      >
        {report.results.map((r) => (
          <tr key={r.userId}>
            <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
              <Link to={`/admin/user/${r.userId}`} className="font-mono text-brand-700 hover:underline">
                {r.prolificPid}
              </Link>
            </th>
            <td className={TD_CLASS}>
              {r.persona.stance}, {r.persona.verbosity}, {r.persona.ageGroup}
              {r.persona.leaveTendency >= 0.5 ? ', may leave' : ''}
            </td>
            <td className={TD_CLASS}>{r.condition ?? '-'}</td>
            <td className={TD_WRAP_CLASS}>
              {r.pathway !== null
                ? `completed (${r.pathway})`
                : r.stopped
                  ? `${r.stopped.reason} at ${r.lastStep}${r.stopped.reason === 'left' ? '' : `: ${r.stopped.detail}`}`
                  : r.lastStep}
            </td>
            <td className={NUM}>{duration(r.simulatedSeconds)}</td>
            <td className={NUM}>
              {r.chat ? `${r.chat.rounds}${r.chat.ruleReached ? '' : ' (rule not reached)'}` : '-'}
            </td>
            <td className={NUM}>
              {tokens(r.inputTokens)} / {tokens(r.outputTokens)}
            </td>
            <td className={NUM}>{usd(r.costUsd)}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

const newSeed = () => Math.floor(Math.random() * 2_147_483_647);

/**
 * 'Pilot with simulated participants' (issue 35): admins run N scripted personas through the pinned study (the
 * same participant API, a pilot clock, test runs); staff read the latest report.
 */
export function PilotCard({ experimentId }: { experimentId: string }) {
  const admin = useCanEditExperiment(experimentId);
  const [count, setCount] = useState('10');
  const [target, setTarget] = useState('200');
  const [seed, setSeed] = useState(newSeed);
  const [personas, setPersonas] = useState<PilotPersona[]>(() => samplePersonas(10, seed));
  const [error, setError] = useState<{ field: 'participants' | 'target'; error: string } | undefined>();
  const [chosen, setChosen] = useState<string | undefined>();
  const runs = usePilotRuns(experimentId);
  const start = useStartPilot(experimentId);
  const shownId = chosen ?? runs.data?.runs[0]?.id;
  const run = usePilotRun(experimentId, shownId);

  const resample = (n: number, s: number) => {
    setSeed(s);
    setPersonas(samplePersonas(n, s));
  };
  const changeCount = (text: string) => {
    setCount(text);
    const n = Number(text.trim());
    if (Number.isInteger(n) && n >= 1 && n <= PILOT_PARTICIPANTS_MAX) setPersonas(samplePersonas(n, seed));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = pilotInput(count, target);
    if ('error' in typed) return setError(typed);
    setError(undefined);
    start.mutate(
      { participants: typed.participants, target_sample: typed.target, seed, personas },
      { onSuccess: (created) => setChosen(created.id) },
    );
  };

  return (
    <Card>
      <section aria-labelledby="pilot-heading" className="space-y-3">
        <h2 id="pilot-heading" className="text-lg font-semibold text-slate-900">
          Pilot with simulated participants
        </h2>
        <p className="text-sm text-slate-700">
          Before launch, scripted personas walk the pinned study through the same steps a participant&apos;s browser
          takes, with every rule of the server applying and timed steps passing on a pilot clock. The report says
          whether every pathway can be reached, whether each arm&apos;s chat reaches its rule, how long the steps take
          and what the chat will cost. Pilot participants are test runs.
        </p>
        {admin && (
          <form onSubmit={submit} noValidate className="space-y-3">
            <div className="flex flex-wrap items-end gap-3">
              <TextField
                label="Simulated participants"
                inputMode="numeric"
                value={count}
                onChange={(e) => changeCount(e.target.value)}
                error={error?.field === 'participants' ? error.error : undefined}
                className="w-56"
              />
              <TextField
                label="Target sample size"
                inputMode="numeric"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                error={error?.field === 'target' ? error.error : undefined}
                className="w-48"
              />
              <Button
                type="button"
                variant="secondary"
                onClick={() => resample(personas.length, newSeed())}
                disabled={start.isPending}
              >
                Sample new personas
              </Button>
              <Button type="submit" disabled={start.isPending}>
                {start.isPending ? 'Running the pilot...' : 'Run pilot'}
              </Button>
            </div>
            <details>
              <summary className="cursor-pointer text-sm font-medium text-brand-700">
                Personas ({personas.length}, seed {seed}): edit
              </summary>
              <div className="mt-2">
                <PersonaEditor personas={personas} onChange={setPersonas} />
              </div>
            </details>
          </form>
        )}
        {start.isPending && <Spinner label="Running the pilot: simulated participants are walking the study..." />}
        {start.isError && <Alert>Could not run the pilot: {serverMessage(start.error, 'Failed to run')}</Alert>}
        {runs.isError && (
          <Alert>Could not load the pilot runs: {serverMessage(runs.error, 'Failed to load data')}</Alert>
        )}
        {runs.data && runs.data.runs.length > 1 && (
          <div>
            <label htmlFor={`pilot-runs-${experimentId}`} className="block text-sm font-medium text-slate-800">
              Report of the run
            </label>
            <select
              id={`pilot-runs-${experimentId}`}
              className={SELECT}
              value={shownId}
              onChange={(e) => setChosen(e.target.value)}
            >
              {runs.data.runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {new Date(r.createdAt).toLocaleString('en-GB')}: {r.completed} of {r.participants} completed
                </option>
              ))}
            </select>
          </div>
        )}
        {runs.data?.runs.length === 0 && !start.isPending && (
          <p className="text-sm text-slate-600">No pilot has been run for this experiment yet.</p>
        )}
        {shownId !== undefined &&
          (run.isPending ? (
            <Spinner label="Loading the report..." />
          ) : run.isError ? (
            <Alert>Could not load the report: {serverMessage(run.error, 'Failed to load data')}</Alert>
          ) : (
            <PilotReportView report={run.data.report} />
          ))}
      </section>
    </Card>
  );
}
