import { useState } from 'react';
import { copyText } from '../lib/clipboard';
import { useTimedFlag } from './use-timed-flag';

export const COPY_FAILED_TEXT = 'Failed to copy to clipboard. Please copy manually.';
/** How long the copied icon shows (spec section 9). */
export const COPY_ICON_MS = 2000;

/** A small copy button: shows a check icon for 2 s after copying, or the manual-copy text on failure. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, flashCopied] = useTimedFlag(COPY_ICON_MS);
  const [failed, setFailed] = useState(false);

  async function handleClick() {
    const ok = await copyText(text);
    setFailed(!ok);
    if (ok) flashCopied();
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() => void handleClick()}
        aria-label={copied ? `${label}: copied` : label}
        title={label}
        className="inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-100"
      >
        {copied ? <CheckIcon /> : <ClipboardIcon />}
      </button>
      {failed && (
        <span role="alert" className="text-xs whitespace-normal text-red-700">
          {COPY_FAILED_TEXT}
        </span>
      )}
    </span>
  );
}

function ClipboardIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6">
      <rect x="6" y="5" width="10" height="12" rx="1.5" />
      <path d="M4 13V4.5A1.5 1.5 0 0 1 5.5 3H12" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-4 text-green-700"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
    >
      <path d="m4.5 10.5 3.5 3.5 7.5-8" />
    </svg>
  );
}
