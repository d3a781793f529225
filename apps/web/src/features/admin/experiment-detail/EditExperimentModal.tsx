import {
  COMPLETION_CODE_MAX,
  EXPERIMENT_DESCRIPTION_MAX,
  EXPERIMENT_NAME_MAX,
  type CodeKey,
  type Experiment,
} from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { errorText } from '../format';
import { TextArea } from '../TextArea';
import { computeEditChanges, editFormFrom, type EditForm } from './edit-changes';
import { useSaveExperiment } from './use-experiment-detail';
import { usePathways } from './use-pathways';

/**
 * The Edit Experiment modal: sends only what changed, then closes and the data reloads. `showCodes` false leaves the
 * built-in study's codes out (a flow's pathways have their own card, FlowCodesCard).
 */
export function EditExperimentModal({
  experiment,
  open,
  onOpenChange,
  showCodes = true,
}: {
  experiment: Experiment;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showCodes?: boolean;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Edit Experiment" wide>
      {/* Mounted only while open, so each opening starts from the current values. */}
      {open && <EditForm experiment={experiment} showCodes={showCodes} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function EditForm({
  experiment,
  showCodes,
  onDone,
}: {
  experiment: Experiment;
  showCodes: boolean;
  onDone: () => void;
}) {
  const save = useSaveExperiment(experiment);
  const pathways = usePathways(experiment);
  const [form, setForm] = useState<EditForm>(() => editFormFrom(experiment));
  const [nameError, setNameError] = useState<string | undefined>();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    if (!form.name.trim()) {
      setNameError('Name is required');
      return;
    }
    setNameError(undefined);
    const changes = computeEditChanges(experiment, form);
    if (!changes.details && !changes.codes) {
      onDone();
      return;
    }
    save.mutate(changes, { onSuccess: onDone });
  }

  const setCode = (key: CodeKey, value: string) => setForm((f) => ({ ...f, codes: { ...f.codes, [key]: value } }));

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-4">
      <TextField
        label="Name *"
        name="name"
        required
        maxLength={EXPERIMENT_NAME_MAX}
        value={form.name}
        onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
        error={nameError}
      />
      <TextArea
        label="Description"
        name="description"
        maxLength={EXPERIMENT_DESCRIPTION_MAX}
        value={form.description}
        onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
      />
      {showCodes && (
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">Completion codes</legend>
          <p className="text-sm text-slate-600">
            Empty fields are not sent: a code, once set, can be changed but not removed.
          </p>
          {pathways.map(({ codeKey, label, description }) => (
            <TextField
              key={codeKey}
              label={`Completion code: ${codeKey}`}
              hint={`Pathway: ${label}. ${description}`}
              name={`code-${codeKey}`}
              placeholder="Not set"
              autoComplete="off"
              spellCheck={false}
              maxLength={COMPLETION_CODE_MAX}
              value={form.codes[codeKey]}
              onChange={(e) => setCode(codeKey, e.target.value)}
            />
          ))}
        </fieldset>
      )}
      {save.isError && <Alert>{errorText(save.error)}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
