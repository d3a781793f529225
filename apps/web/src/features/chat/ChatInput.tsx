import { CHAT_MESSAGE_MAX_LENGTH } from '@studychat/contracts/web';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

/** Spec section 9: the input grows with its text up to this height, then scrolls. */
export const INPUT_MAX_HEIGHT_PX = 150;

export const PASTE_HINT =
  'Pasting is turned off here. Please type your message in your own words: writing it yourself is part of the study.';

/**
 * The message box: Enter sends, Shift+Enter adds a line, pasting and dropping text are blocked.
 * It stays enabled while a reply streams (disabling it would close a phone's keyboard); only sending waits.
 */
export function ChatInput({
  value,
  onChange,
  onSend,
  canSend,
  autoFocus = false,
}: {
  value: string;
  onChange: (text: string) => void;
  onSend: () => void;
  canSend: boolean;
  /** Moves focus here on mount (after Start Conversation, whose button has gone). */
  autoFocus?: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  const [pasteBlocked, setPasteBlocked] = useState(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const height = Math.min(el.scrollHeight, INPUT_MAX_HEIGHT_PX);
    if (height > 0) el.style.height = `${height}px`;
    el.style.overflowY = el.scrollHeight > INPUT_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);

  const sendable = canSend && value.trim().length > 0;
  const submit = () => {
    if (!sendable) return;
    onSend();
    // Sending from the button (which turns disabled) must not strand keyboard focus.
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };

  const block = (e: { preventDefault: () => void }) => {
    e.preventDefault();
    setPasteBlocked(true);
  };

  return (
    <form
      className="border-t border-slate-200 bg-white px-3 pt-3 pb-2 sm:px-6"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="chat-input" className="sr-only">
        Your message to the assistant
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id="chat-input"
          ref={ref}
          rows={1}
          value={value}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          placeholder="Type your message…"
          aria-describedby="chat-input-help"
          autoComplete="off"
          onChange={(e) => {
            onChange(e.target.value);
            if (pasteBlocked) setPasteBlocked(false);
          }}
          onKeyDown={onKeyDown}
          onPaste={block}
          onDrop={block}
          style={{ maxHeight: INPUT_MAX_HEIGHT_PX }}
          className="block min-h-11 w-full flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base leading-6 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/40 focus:outline-none"
        />
        <button
          type="submit"
          disabled={!sendable}
          // Keeps focus (and a phone's keyboard) in the message box when the button is tapped.
          onMouseDown={(e) => e.preventDefault()}
          className="inline-flex min-h-11 min-w-16 items-center justify-center rounded-xl bg-brand-600 px-4 text-base font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
        >
          Send
        </button>
      </div>
      <p
        id="chat-input-help"
        role="status"
        className={`mt-1 min-h-5 text-xs sm:text-sm ${pasteBlocked ? 'text-amber-800' : 'text-slate-600'}`}
      >
        {pasteBlocked ? PASTE_HINT : 'Enter sends · Shift+Enter adds a new line'}
      </p>
    </form>
  );
}
