import type { StudyVersion } from '@studychat/contracts/web';
import { useCallback, useMemo, useState } from 'react';
import { removeAt, setAt, type Path } from './draft-path';
import { formatDefinition, parseDefinition } from './parse-definition';

/**
 * The editor's one source of truth: the JSON view's text (and the label). The forms read the object parsed
 * from it and write by rewriting it, so forms and JSON view can never disagree; while the text is not a JSON
 * object the forms are hidden.
 */
export function useStudyDraft(version: StudyVersion) {
  const [saved, setSaved] = useState(() => ({ label: version.label, text: formatDefinition(version.definition) }));
  const [label, setLabel] = useState(saved.label);
  const [text, setText] = useState(saved.text);
  const parsed = useMemo(() => parseDefinition(text), [text]);

  const edit = useCallback((path: Path, value: unknown) => {
    setText((current) => {
      const draft = parseDefinition(current);
      if (!draft.ok) return current;
      return formatDefinition(value === undefined ? removeAt(draft.value, path) : setAt(draft.value, path, value));
    });
  }, []);

  return {
    label,
    setLabel,
    text,
    setText,
    parsed,
    edit,
    dirty: label !== saved.label || text !== saved.text,
    /** What was just saved becomes the baseline of "unsaved changes". */
    markSaved: (state: { label: string; text: string }) => setSaved(state),
  };
}
