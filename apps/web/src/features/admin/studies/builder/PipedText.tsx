import type { Path } from '../editor/draft-path';
import { TextInput } from '../editor/fields';
import { PipeMenu } from './PipeMenu';

/** A text that may pipe earlier answers (`{{key}}`): the field, and its Insert answer menu. */
export function PipedText({
  path,
  label,
  rows,
  optional,
  hint,
  hiddenLabel,
}: {
  path: Path;
  label: string;
  rows?: number;
  optional?: boolean;
  hint?: string;
  /** The rest of the field's name, for screen readers ("of step 3"). */
  hiddenLabel?: string;
}) {
  return (
    <div>
      <TextInput path={path} label={label} hiddenLabel={hiddenLabel} rows={rows} optional={optional} hint={hint} />
      <PipeMenu path={path} label={`${label}${hiddenLabel ?? ''}`} />
    </div>
  );
}
