import type { ReactNode } from 'react';
import { StudyFooter } from './StudyFooter';

/** The frame of every participant page: a calm single column, the page title and the study footer. */
export function StudyLayout({
  title,
  children,
  wide = false,
  disclaimer,
}: {
  title?: string;
  children: ReactNode;
  /** A wider column for reading pages on large screens. */
  wide?: boolean;
  /** The study's own disclaimer in the footer (a flow's, issue 30); the spec's when absent. */
  disclaimer?: string;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className={`mx-auto px-4 py-3 ${wide ? 'max-w-3xl' : 'max-w-2xl'}`}>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Research study</p>
        </div>
      </header>
      <main className={`mx-auto w-full flex-1 px-4 pt-6 pb-4 sm:pt-10 ${wide ? 'max-w-3xl' : 'max-w-2xl'}`}>
        {title && <h1 className="mb-5 text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>}
        {children}
      </main>
      <StudyFooter disclaimer={disclaimer} />
    </div>
  );
}
