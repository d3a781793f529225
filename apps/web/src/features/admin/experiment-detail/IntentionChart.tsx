import { LIKERT_MAX, LIKERT_MIN, type DetailedParticipantRow } from '@studychat/contracts/web';
import { useId } from 'react';
import { intentionByCondition } from './intention-stats';

const WIDTH = 520;
const HEIGHT = 260;
const PAD = { top: 24, right: 12, bottom: 52, left: 36 };
const BAR = 44;
const BEFORE_COLOR = '#94a3b8';
const AFTER_COLOR = '#245a94';

const fmt = (value: number) => value.toFixed(2);

/**
 * Mean intention before (baseline) and after (post) per condition, as a small hand-drawn SVG bar chart.
 * The drawing is hidden from screen readers, which get the same numbers as a table.
 */
export function IntentionChart({
  rows,
  conditions = [],
}: {
  rows: readonly DetailedParticipantRow[];
  /** The study's condition ids, in its order. */
  conditions?: readonly string[];
}) {
  const captionId = useId();
  const stats = intentionByCondition(rows, conditions);
  if (stats.length === 0) {
    return <p className="text-slate-600">No participants with both a baseline and a post intention yet.</p>;
  }
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const plotW = WIDTH - PAD.left - PAD.right;
  const y = (v: number) => PAD.top + plotH - ((v - LIKERT_MIN) / (LIKERT_MAX - LIKERT_MIN)) * plotH;
  const groupW = plotW / stats.length;
  const ticks = Array.from({ length: LIKERT_MAX - LIKERT_MIN + 1 }, (_, i) => LIKERT_MIN + i);

  return (
    <figure aria-labelledby={captionId}>
      <figcaption id={captionId} className="text-sm text-slate-600">
        Mean intention (1 = definitely not, 7 = definitely yes) before and after, per condition; participants with both
        answers.
      </figcaption>
      <div className="mt-2 flex gap-4 text-xs text-slate-700" aria-hidden="true">
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ background: BEFORE_COLOR }} /> Before (baseline)
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ background: AFTER_COLOR }} /> After (post)
        </span>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-1 h-auto w-full max-w-xl"
        aria-hidden="true"
        focusable="false"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
            <text x={PAD.left - 8} y={y(t) + 4} textAnchor="end" fontSize="11" fill="#64748b">
              {t}
            </text>
          </g>
        ))}
        {stats.map((s, i) => {
          const cx = PAD.left + groupW * i + groupW / 2;
          const bars = [
            { value: s.meanPre, x: cx - BAR - 3, color: BEFORE_COLOR },
            { value: s.meanPost, x: cx + 3, color: AFTER_COLOR },
          ];
          return (
            <g key={s.condition}>
              {bars.map((b) => (
                <g key={b.x}>
                  <rect x={b.x} y={y(b.value)} width={BAR} height={y(LIKERT_MIN) - y(b.value)} fill={b.color} rx="2" />
                  <text x={b.x + BAR / 2} y={y(b.value) - 5} textAnchor="middle" fontSize="11" fill="#0f172a">
                    {fmt(b.value)}
                  </text>
                </g>
              ))}
              <text
                x={cx}
                y={HEIGHT - PAD.bottom + 20}
                textAnchor="middle"
                fontSize="13"
                fontWeight="600"
                fill="#0f172a"
              >
                {s.condition}
              </text>
              <text x={cx} y={HEIGHT - PAD.bottom + 38} textAnchor="middle" fontSize="11" fill="#475569">
                n = {s.n}
              </text>
            </g>
          );
        })}
      </svg>
      {/* sr-only on a wrapper: a table grows to its content whatever width it is given, and widened the page. */}
      <div className="sr-only">
        <table>
          <caption>Mean intention before and after, per condition</caption>
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col">n</th>
              <th scope="col">Mean before (baseline)</th>
              <th scope="col">Mean after (post)</th>
            </tr>
          </thead>
          <tbody>
            {stats.map((s) => (
              <tr key={s.condition}>
                <th scope="row">{s.condition}</th>
                <td>{s.n}</td>
                <td>{fmt(s.meanPre)}</td>
                <td>{fmt(s.meanPost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
