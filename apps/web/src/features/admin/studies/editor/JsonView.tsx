import { Alert } from '../../../../components/Alert';
import { TextArea } from '../../TextArea';

/** The whole definition as JSON: the same draft the forms edit, for what they do not cover. */
export function JsonView({
  id,
  text,
  error,
  invalid,
  readOnly,
  onChange,
}: {
  id: string;
  text: string;
  /** Why the text is not a JSON object, if it is not. */
  error: string | null;
  invalid: boolean;
  readOnly: boolean;
  onChange: (text: string) => void;
}) {
  return (
    <details open className="rounded-lg border border-slate-200 bg-white">
      <summary className="flex min-h-11 cursor-pointer items-center px-3 py-2 font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        Whole definition (JSON)
      </summary>
      <div className="space-y-2 border-t border-slate-200 p-3">
        <TextArea
          id={id}
          label="Study definition (JSON)"
          value={text}
          readOnly={readOnly}
          rows={24}
          spellCheck={false}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
          aria-invalid={invalid}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {error && (
          <div id={`${id}-error`}>
            <Alert tone="error">Not valid JSON: {error}. The forms come back once it is.</Alert>
          </div>
        )}
      </div>
    </details>
  );
}
