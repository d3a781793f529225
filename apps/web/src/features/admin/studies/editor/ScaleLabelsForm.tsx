import { useDraft } from './draft-context';
import { fieldId, type Path } from './draft-path';
import { FieldIssues } from './FieldIssues';
import { TextInput } from './fields';

/** The labels at 1, 4 and 7 of a 1-7 scale. */
export function ScaleLabelsForm({ path, of }: { path: Path; of: string }) {
  const { issuesAt } = useDraft();
  const id = fieldId(path);
  return (
    <fieldset id={id} tabIndex={-1} className="rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Scale labels of {of}</legend>
      <FieldIssues id={`${id}-issues`} issues={issuesAt(path)} />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextInput path={[...path, 'min']} label={`Label at 1 of ${of}`} />
        <TextInput path={[...path, 'mid']} label={`Label at 4 of ${of}`} />
        <TextInput path={[...path, 'max']} label={`Label at 7 of ${of}`} />
      </div>
    </fieldset>
  );
}
