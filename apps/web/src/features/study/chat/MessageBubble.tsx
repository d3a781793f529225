import { memo } from 'react';
import type { UiMessage } from './chat-types';
import { splitContent } from './message-content';

export const NO_RESPONSE_TEXT = '[No response from assistant]';

/** One message. Content is always rendered as text (React escapes it), never as HTML. */
export const MessageBubble = memo(function MessageBubble({ message }: { message: UiMessage }) {
  const mine = message.role === 'user';
  return (
    <li className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-4 py-2.5 text-base leading-relaxed shadow-sm sm:max-w-[75%] ${
          mine
            ? 'rounded-br-md bg-brand-600 text-white'
            : 'rounded-bl-md border border-slate-200 bg-white text-slate-900'
        }`}
      >
        <span className="sr-only">{mine ? 'You said:' : 'Assistant said:'}</span>
        {message.loading ? (
          <>
            {message.busy && (
              <p role="status" className="mb-1 text-sm text-slate-700">
                {message.busy}
              </p>
            )}
            <TypingDots />
          </>
        ) : (
          <Content message={message} />
        )}
      </div>
    </li>
  );
});

function Content({ message }: { message: UiMessage }) {
  if (message.role === 'assistant' && !message.content.trim())
    return <p className="text-slate-600 italic">{NO_RESPONSE_TEXT}</p>;
  return (
    <>
      {splitContent(message.content).map((part, i) =>
        part.kind === 'code' ? (
          <pre
            key={i}
            className="my-2 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-sm whitespace-pre text-slate-50"
          >
            <code>{part.text}</code>
          </pre>
        ) : (
          <p key={i} className="break-words whitespace-pre-wrap">
            {part.text}
          </p>
        ),
      )}
    </>
  );
}

function TypingDots() {
  return (
    <span className="flex h-6 items-center gap-1">
      <span className="sr-only">The assistant is typing…</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          aria-hidden="true"
          className="size-2 animate-bounce rounded-full bg-slate-400 motion-reduce:animate-none"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}
