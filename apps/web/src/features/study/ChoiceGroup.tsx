import { useId } from 'react';

export interface ChoiceGroupProps<T extends string> {
  legend: string;
  name: string;
  options: readonly { value: T; label: string }[];
  value: T | null;
  onChange: (value: T) => void;
  columns?: 1 | 2 | 3;
  /** Marked with a red asterisk (default); an optional question is not. */
  required?: boolean;
}

const COLUMNS = { 1: 'grid-cols-1', 2: 'grid-cols-2', 3: 'grid-cols-2 sm:grid-cols-3' } as const;

/** A single-choice question (required unless told) as a native radio group, styled as large tappable options. */
export function ChoiceGroup<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  columns = 1,
  required = true,
}: ChoiceGroupProps<T>) {
  const baseId = useId();
  return (
    <fieldset className="min-w-0">
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
      <div className={`mt-3 grid gap-2 ${COLUMNS[columns]}`}>
        {options.map((option) => {
          const id = `${baseId}-${option.value}`;
          return (
            <div key={option.value}>
              <input
                id={id}
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                className="peer sr-only"
              />
              <label
                htmlFor={id}
                className="flex min-h-12 cursor-pointer items-center justify-center rounded-lg border-2 border-slate-300 bg-white px-3 py-2 text-center text-base font-medium text-slate-800 transition-colors peer-checked:border-brand-600 peer-checked:bg-brand-600 peer-checked:text-white peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 hover:border-brand-500"
              >
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
