import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { useCreateStudyVersion } from '../use-studies';
import { blankFlow } from './defaults';

/** The Studies page's "Blank study": a new draft holding the least study that runs, opened in the builder. */
export function BlankStudyItem({ onCreated }: { onCreated: (id: string) => void }) {
  const create = useCreateStudyVersion();
  return (
    <li className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <p className="font-medium text-slate-900">Blank study</p>
        <p className="text-sm text-slate-600">
          A consent page and an end, for one condition: add the steps, conditions and pathways in the builder.
        </p>
        {create.error && (
          <Alert tone="error" className="mt-2">
            {create.error.message}
          </Alert>
        )}
      </div>
      <Button
        variant="secondary"
        className="shrink-0"
        disabled={create.isPending}
        onClick={() =>
          create.mutate(
            { label: 'New study', definition: { ...blankFlow() } },
            { onSuccess: (created) => onCreated(created.id) },
          )
        }
      >
        Start a blank study
      </Button>
    </li>
  );
}
