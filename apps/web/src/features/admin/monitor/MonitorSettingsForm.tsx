import type { MonitorSettings } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { serverMessage } from '../format';
import { useSaveMonitorSettings } from './use-monitor';

/** Stale minutes and the target sample size (admins). */
export function MonitorSettingsForm({ experimentId, settings }: { experimentId: string; settings: MonitorSettings }) {
  const [stale, setStale] = useState(String(settings.stale_minutes));
  const [target, setTarget] = useState(settings.target_sample_size === null ? '' : String(settings.target_sample_size));
  const save = useSaveMonitorSettings(experimentId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      stale_minutes: Number(stale),
      target_sample_size: target.trim() === '' ? null : Number(target),
    });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <TextField
        label="Stale after (minutes)"
        type="number"
        min={1}
        value={stale}
        onChange={(e) => setStale(e.target.value)}
        className="w-44"
      />
      <TextField
        label="Target sample size"
        type="number"
        min={1}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        className="w-44"
      />
      <Button type="submit" disabled={save.isPending}>
        Save monitor settings
      </Button>
      {save.isError && (
        <p role="alert" className="w-full text-sm text-red-700">
          {serverMessage(save.error, 'Could not save the settings')}
        </p>
      )}
      {save.isSuccess && (
        <p role="status" className="w-full text-sm text-green-800">
          Saved.
        </p>
      )}
    </form>
  );
}
