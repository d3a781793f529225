import { useEffect, useLayoutEffect, useRef } from 'react';
import type { UiMessage } from './chat-types';
import { MessageBubble } from './MessageBubble';

/** Within this many pixels of the bottom counts as following the conversation. */
const STICK_PX = 48;

/** The conversation as a live log; keeps the newest message in view unless the reader scrolled up. */
export function MessageList({ messages, busy }: { messages: UiMessage[]; busy: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastCount = useRef(messages.length);

  const toBottom = () => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  useLayoutEffect(() => {
    // A message the participant just sent always brings the view down.
    if (messages.slice(lastCount.current).some((m) => m.role === 'user')) stick.current = true;
    lastCount.current = messages.length;
    if (stick.current) toBottom();
  }, [messages]);

  // The keyboard opening or the window turning shrinks the list: keep the newest message visible.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={ref}
      role="log"
      aria-live="polite"
      aria-busy={busy}
      aria-label="Conversation with the AI assistant"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_PX;
      }}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-4 sm:px-6"
    >
      <ol className="space-y-3">
        {messages.map((m) => (
          <MessageBubble key={m.id} message={m} />
        ))}
      </ol>
    </div>
  );
}
