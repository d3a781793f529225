// Reading and writing one place of a study draft by its path (the same paths the server's issues name,
// e.g. ['pre', 'questions', 0, 'wording'] is `pre.questions.0.wording`). The draft is whatever the JSON view
// holds, so every read tolerates a missing or mistyped part, and every write copies only the objects on its path.

export type Path = readonly (string | number)[];

/** The path as the server's issues write it. */
export const pathKey = (path: Path): string => path.join('.');

/** The DOM id of the field (or group) at a path, so an issue in the summary can focus it. */
export const fieldId = (path: Path): string => `study-field-${pathKey(path) || 'root'}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `path`, or undefined when any part of the way is missing (own properties only). */
export function getAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isRecord(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

/** A copy of `root` with `value` at `path`; undefined removes an object's key. Missing parts are created. */
export function setAt<T>(root: T, path: Path, value: unknown): T {
  return setIn(root, path, 0, value) as T;
}

function setIn(node: unknown, path: Path, index: number, value: unknown): unknown {
  if (index === path.length) return value;
  const key = path[index] as string | number;
  if (Array.isArray(node) && typeof key === 'number') {
    const copy = [...node];
    copy[key] = setIn(copy[key], path, index + 1, value);
    return copy;
  }
  const copy: Record<string, unknown> = isRecord(node) ? { ...node } : {};
  const next = setIn(Object.hasOwn(copy, key) ? copy[key] : undefined, path, index + 1, value);
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

/**
 * A copy of `root` without the key at `path`, and without the objects that leaves empty on the way up (an
 * optional object with nothing set is "not set", e.g. a pathway's words or a condition's model settings).
 */
export function removeAt<T>(root: T, path: Path): T {
  let next = setAt(root, path, undefined);
  // An item of a list is never removed this way (that would leave a hole): only object keys.
  for (let n = path.length - 1; n >= 1 && typeof path[n - 1] === 'string'; n -= 1) {
    const parent = getAt(next, path.slice(0, n));
    if (!isRecord(parent) || Object.keys(parent).length > 0) break;
    next = setAt(next, path.slice(0, n), undefined);
  }
  return next;
}

/** The array at `path`, or an empty one when it is missing or not an array. */
export function listAt(root: unknown, path: Path): unknown[] {
  const value = getAt(root, path);
  return Array.isArray(value) ? value : [];
}

/** The list without the item at `index`. */
export const withoutItem = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);

/** The list with the item at `from` moved to `to` (both within the list). */
export function movedItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}
