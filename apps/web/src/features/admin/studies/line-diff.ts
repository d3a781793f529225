/** One line of a diff: kept, removed (only in the first text) or added (only in the second). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * A line diff of two texts (longest common subsequence). Study definitions are a few thousand lines at
 * most; beyond `maxCells` comparisons it gives up and returns null rather than freeze the page.
 */
export function lineDiff(before: string, after: string, maxCells = 25_000_000): DiffLine[] | null {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common head and tail first: most edits touch a few lines.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    tail += 1;
  }
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > maxCells) return null;
  const width = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * width);
  for (let i = x.length - 1; i >= 0; i -= 1) {
    for (let j = y.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        x[i] === y[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      middle.push({ kind: 'same', text: x[i] ?? '' });
      i += 1;
      j += 1;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      middle.push({ kind: 'removed', text: x[i] ?? '' });
      i += 1;
    } else {
      middle.push({ kind: 'added', text: y[j] ?? '' });
      j += 1;
    }
  }
  for (; i < x.length; i += 1) middle.push({ kind: 'removed', text: x[i] ?? '' });
  for (; j < y.length; j += 1) middle.push({ kind: 'added', text: y[j] ?? '' });
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}
