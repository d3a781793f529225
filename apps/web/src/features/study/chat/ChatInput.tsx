import { messageLength } from '@studychat/contracts/web';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from 'react';

/** Spec section 9: the input grows with its text up to this height, then scrolls. */
export const INPUT_MAX_HEIGHT_PX = 150;

/** The character counter shows from this share of the limit on. */
export const COUNTER_FROM_SHARE = 0.8;

const formatCount = (n: number) => n.toLocaleString('en-US');

/** Under the box when the text is over the limit: it is never cut, and Send waits until it fits. */
export function tooLongText(length: number, max: number): string {
  return `Your message is ${formatCount(length - max)} ${length - max === 1 ? 'character' : 'characters'} too long: this chat takes at most ${formatCount(max)}. Please shorten it to send it.`;
}

export function messagesLeftText(left: number): string {
  return left === 1
    ? 'This is the last message you can send in this chat.'
    : `You can send ${left} more messages in this chat.`;
}

/** Messages left at which the box says how many remain. */
const FEW_MESSAGES_LEFT = 3;

export const PASTE_HINT =
  'Pasting is turned off here. Please type your message in your own words: writing it yourself is part of the study.';

/**
 * The message box: Enter sends, Shift+Enter adds a line, pasting and dropping text are blocked (and reported
 * with their length only, through `onPasteBlocked`).
 * It stays enabled while a reply streams (disabling it would close a phone's keyboard); only sending waits.
 */
export function ChatInput({
  value,
  onChange,
  onSend,
  canSend,
  maxChars,
  messagesLeft,
  autoFocus = false,
  onPasteBlocked,
}: {
  value: string;
  onChange: (text: string) => void;
  onSend: () => void;
  canSend: boolean;
  /** The experiment's limit on one message, in characters (counted as the server counts them). */
  maxChars: number;
  messagesLeft: number;
  /** Moves focus here on mount (after Start Conversation, whose button has gone). */
  autoFocus?: boolean;
  /** Called with the length of a blocked paste or drop (never the text). */
  onPasteBlocked?: (length: number) => void;
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

  const length = messageLength(value);
  const tooLong = length > maxChars;
  const showCounter = length >= maxChars * COUNTER_FROM_SHARE;
  const sendable = canSend && value.trim().length > 0 && !tooLong;
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

  const block = (e: ClipboardEvent<HTMLTextAreaElement> | DragEvent<HTMLTextAreaElement>) => {
    e.preventDefault();
    setPasteBlocked(true);
    const data = 'clipboardData' in e ? e.clipboardData : e.dataTransfer;
    onPasteBlocked?.(data?.getData('text/plain').length ?? 0);
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
          placeholder="Type your message…"
          aria-describedby={showCounter ? 'chat-input-help chat-input-count' : 'chat-input-help'}
          aria-invalid={tooLong}
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
      <div className="mt-1 flex items-start justify-between gap-3 text-xs sm:text-sm">
        <p
          id="chat-input-help"
          role="status"
          className={`min-h-5 ${tooLong ? 'font-medium text-red-700' : pasteBlocked ? 'text-amber-800' : 'text-slate-600'}`}
        >
          {tooLong
            ? tooLongText(length, maxChars)
            : pasteBlocked
              ? PASTE_HINT
              : messagesLeft <= FEW_MESSAGES_LEFT
                ? messagesLeftText(messagesLeft)
                : 'Enter sends · Shift+Enter adds a new line'}
        </p>
        {showCounter && (
          <span
            id="chat-input-count"
            className={`shrink-0 tabular-nums ${tooLong ? 'font-semibold text-red-700' : 'text-slate-600'}`}
          >
            <span className="sr-only">Characters: </span>
            {formatCount(length)} / {formatCount(maxChars)}
          </span>
        )}
      </div>
    </form>
  );
}
