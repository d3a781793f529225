// The sample-ratio check's statistics: Pearson's chi-square against equal allocation and its p-value.

/** Chi-square statistic of the observed counts against an equal split of their total. */
export function chiSquareEqual(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0 || counts.length < 2) return 0;
  const expected = total / counts.length;
  return counts.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0);
}

/** ln Γ(x) (Lanczos approximation, g = 7). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = c[0] ?? 0;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] ?? 0) / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularised upper incomplete gamma Q(s, x) (series below s + 1, continued fraction above). */
function upperGamma(s: number, x: number): number {
  if (x <= 0) return 1;
  const lnFront = s * Math.log(x) - x - logGamma(s);
  if (x < s + 1) {
    let term = 1 / s;
    let sum = term;
    for (let n = 1; n < 500; n++) {
      term *= x / (s + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lnFront));
  }
  // Lentz's continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - s;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(lnFront) * h);
}

/** P(X >= statistic) for a chi-square distribution with `df` degrees of freedom. */
export function chiSquarePValue(statistic: number, df: number): number {
  if (df <= 0 || statistic <= 0) return 1;
  return upperGamma(df / 2, statistic / 2);
}
