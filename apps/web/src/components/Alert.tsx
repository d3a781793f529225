import type { ReactNode } from 'react';

type Tone = 'error' | 'info' | 'success' | 'warning';

const TONES: Record<Tone, string> = {
  error: 'border-red-300 bg-red-50 text-red-800',
  info: 'border-brand-100 bg-brand-50 text-brand-900',
  success: 'border-green-300 bg-green-50 text-green-800',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
};

/** A message box; errors are announced to screen readers at once (role alert). */
export function Alert({
  tone = 'error',
  children,
  className = '',
}: {
  tone?: Tone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm sm:text-base ${TONES[tone]} ${className}`}
    >
      {children}
    </div>
  );
}
