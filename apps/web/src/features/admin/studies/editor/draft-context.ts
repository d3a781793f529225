import type { StudyIssue } from '@studychat/contracts/web';
import { createContext, useContext } from 'react';
import { pathKey, type Path } from './draft-path';

/** What every form field reads: the draft (the JSON view's object), how to change one place, and the issues. */
export interface DraftApi {
  draft: Record<string, unknown>;
  /** Writes `value` at `path` (undefined removes the key, and objects left empty); the JSON view shows it at once. */
  edit: (path: Path, value: unknown) => void;
  /** Every problem of the draft (live check or refused save), in the server's order. */
  issues: readonly StudyIssue[];
  /** The issues whose path is exactly `path`. */
  issuesAt: (path: Path) => StudyIssue[];
  readOnly: boolean;
  /** A field the issue summary asked to show: the part holding it opens and focuses it, then clears this. */
  focusRequest: string | null;
  clearFocusRequest: () => void;
  /**
   * What a question had under its other type (options, or scale labels), by the question's answer key, while the
   * editor is open: switching the type back restores it (never saved; the JSON holds only what the type uses).
   */
  typeStash: Map<string, { options?: unknown; labels?: unknown }>;
}

export const DraftContext = createContext<DraftApi | null>(null);

export function useDraft(): DraftApi {
  const api = useContext(DraftContext);
  if (!api) throw new Error('useDraft outside a study editor');
  return api;
}

/** Groups issues by path once per save, so each field finds its own in constant time. */
export function issueIndex(issues: readonly StudyIssue[]): (path: Path) => StudyIssue[] {
  const byPath = new Map<string, StudyIssue[]>();
  for (const issue of issues) byPath.set(issue.path, [...(byPath.get(issue.path) ?? []), issue]);
  return (path) => byPath.get(pathKey(path)) ?? [];
}
