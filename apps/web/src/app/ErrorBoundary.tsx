import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/** Shown when a page crashes or its code cannot be loaded (e.g. after a deploy): offers a reload. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 text-center">
        <h1 className="text-2xl font-bold">Something went wrong</h1>
        <p className="mt-2 text-slate-700">Please reload the page. Your answers so far have been saved.</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mx-auto mt-6 min-h-11 rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
        >
          Reload page
        </button>
      </main>
    );
  }
}
