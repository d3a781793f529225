import { useId } from 'react';

export interface LikertScaleProps {
  /** The question, used as the group's legend. */
  legend: string;
  name: string;
  value: number | null;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  /**
   * Anchor labels for the lowest, middle (floor of the average; optional) and highest points, or one label per
   * point.
   */
  labels: { min: string; mid?: string | undefined; max: string } | readonly string[];
  required?: boolean;
  describedBy?: string | undefined;
}

/**
 * A scale of 2 to 11 points (the spec's 1..7 intention scale by default) as a native radio group (fieldset and
 * legend, arrow keys move between points), styled as large buttons that fit across a 360 px phone screen.
 */
export function LikertScale({
  legend,
  name,
  value,
  onChange,
  min = 1,
  max = 7,
  labels,
  required = false,
  describedBy,
}: LikertScaleProps) {
  const baseId = useId();
  const mid = Math.floor((min + max) / 2);
  const points = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const anchor = (point: number): string | undefined => {
    if (isLabelList(labels)) return labels[point - min];
    return point === min ? labels.min : point === mid ? labels.mid : point === max ? labels.max : undefined;
  };
  return (
    <fieldset aria-describedby={describedBy} className="min-w-0">
      <legend className="text-lg font-semibold text-slate-900">
        {legend}
        {required && (
          <>
            <span aria-hidden="true" className="text-red-700">
              {' '}
              *
            </span>
            <span className="sr-only"> (required)</span>
          </>
        )}
      </legend>
      <div
        className="mt-4 grid gap-1 sm:gap-2"
        style={{ gridTemplateColumns: `repeat(${points.length}, minmax(0, 1fr))` }}
      >
        {points.map((point) => {
          const id = `${baseId}-${point}`;
          const text = anchor(point);
          return (
            <div key={point} className="flex flex-col items-center">
              <input
                id={id}
                type="radio"
                name={name}
                value={point}
                checked={value === point}
                onChange={() => onChange(point)}
                required={required}
                className="peer sr-only"
              />
              <label
                htmlFor={id}
                className="flex h-12 w-full min-w-0 cursor-pointer items-center justify-center rounded-lg border-2 border-slate-300 bg-white text-lg font-semibold text-slate-800 transition-colors peer-checked:border-brand-600 peer-checked:bg-brand-600 peer-checked:text-white peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 hover:border-brand-500 sm:h-14"
              >
                {point}
                {text && <span className="sr-only">{`: ${text}`}</span>}
              </label>
              {text && (
                <span aria-hidden="true" className="mt-1.5 text-center text-xs leading-tight text-slate-700 sm:text-sm">
                  {text}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

function isLabelList(labels: LikertScaleProps['labels']): labels is readonly string[] {
  return Array.isArray(labels);
}
