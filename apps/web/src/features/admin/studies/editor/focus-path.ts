import { fieldId } from './draft-path';

/** Focuses the field at an issue's path, or the nearest group around it; false when neither is on the page. */
export function focusPath(path: string): boolean {
  const parts = path === '' ? [] : path.split('.');
  for (let n = parts.length; n >= 1; n -= 1) {
    const target = document.getElementById(fieldId(parts.slice(0, n)));
    if (target) {
      target.focus();
      return true;
    }
  }
  return false;
}
