import { Spinner } from './Spinner';

/** Placeholder while a page's code loads. */
export function PageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner />
    </div>
  );
}
