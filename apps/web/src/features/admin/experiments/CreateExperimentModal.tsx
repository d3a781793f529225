import { EXPERIMENT_DESCRIPTION_MAX, EXPERIMENT_NAME_MAX } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { errorText } from '../format';
import { TextArea } from '../TextArea';
import { useCreateExperiment } from './use-experiments';

/** 'Create New Experiment': name (required) and description; the list reloads after a create. */
export function CreateExperimentModal({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateExperiment();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  function close() {
    // Cancel closes the modal and clears the error (spec section 2).
    create.reset();
    setNameError(undefined);
    onOpenChange(false);
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      setNameError('Name is required');
      return;
    }
    setNameError(undefined);
    create.mutate(
      { name: name.trim(), description: description.trim() || null },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
          close();
        },
      },
    );
  }

  return (
    <Modal open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} title="Create New Experiment">
      <form noValidate onSubmit={handleSubmit} className="space-y-4">
        <TextField
          label="Name *"
          name="name"
          required
          maxLength={EXPERIMENT_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
        />
        <TextArea
          label="Description (optional)"
          name="description"
          maxLength={EXPERIMENT_DESCRIPTION_MAX}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        {create.isError && <Alert>Failed to create experiment: {errorText(create.error)}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
