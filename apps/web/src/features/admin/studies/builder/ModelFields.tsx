import type { Path } from '../editor/draft-path';
import { TextInput } from '../editor/fields';
import { SelectField } from './SelectField';

const PROVIDERS = [
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'scripted', label: 'Scripted (offline, no model)' },
];

/** Which provider and model answer (each empty: the deployment's). */
export function ModelFields({ path, of }: { path: Path; of: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <SelectField
        path={[...path, 'provider']}
        label="Provider"
        hiddenLabel={of}
        emptyLabel="The deployment’s provider"
        choices={PROVIDERS}
      />
      <TextInput
        path={[...path, 'model']}
        label="Model"
        hiddenLabel={of}
        optional
        placeholder="The deployment’s model"
      />
    </div>
  );
}
