import type { AdminMessage } from '@studychat/contracts/web';
import { useId, useState } from 'react';
import { formatDateTime } from '../format';
import { parseThinkingLog, thinkingEntryText } from './thinking-log';

/** How a reply that did not complete is labelled for admins. */
export const STATUS_LABEL: Record<Exclude<AdminMessage['status'], 'complete'>, string> = {
  streaming: 'Being written',
  interrupted: 'Interrupted',
  error: 'Failed',
  empty: 'Empty reply',
};

function formatUsd(cost: number): string {
  // Six decimals keep sub-cent costs readable; trailing zeros are dropped.
  return `$${Number(cost.toFixed(6))}`;
}

/** The input's split by the provider's prompt cache, when recorded (docs/decisions/0076). */
function cacheText(message: AdminMessage): string | null {
  const { uncached_input_tokens: uncached, cache_write_tokens: write, cache_read_tokens: read } = message;
  if (uncached === null && write === null && read === null) return null;
  return `Input: ${uncached ?? 0} uncached, ${write ?? 0} cache write, ${read ?? 0} cache read`;
}

/** One message of a thread: role, time, content, and for AI messages thinking and usage. */
export function MessageItem({ message }: { message: AdminMessage }) {
  const [showThinking, setShowThinking] = useState(false);
  const thinkingId = useId();
  const isUser = message.role === 'user';
  const entries = isUser ? null : parseThinkingLog(message.thinking_log);
  const usage = [
    message.model_used !== null && `Model: ${message.model_used}`,
    message.fallback_from !== null && `Fallback for ${message.fallback_from}`,
    message.queue_ms !== null && `Waited ${(message.queue_ms / 1000).toFixed(1)} s for the provider`,
    message.tokens_used !== null && `Tokens: ${message.tokens_used}`,
    cacheText(message),
    message.cost_usd !== null && `Cost: ${formatUsd(message.cost_usd)} USD`,
  ].filter((part): part is string => typeof part === 'string');

  return (
    <li className={`rounded-lg border p-3 ${isUser ? 'border-brand-100 bg-brand-50' : 'border-slate-200 bg-white'}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-600">
        <span className={`text-sm font-semibold ${isUser ? 'text-brand-900' : 'text-slate-900'}`}>
          {isUser ? 'User' : 'AI'}
        </span>
        {message.status !== 'complete' && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 font-semibold text-amber-950">
            {STATUS_LABEL[message.status]}
          </span>
        )}
        <time dateTime={message.created_at} className="ml-auto">
          {formatDateTime(message.created_at)}
        </time>
      </div>
      <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">{message.content}</p>
      {message.error_message && <p className="mt-1 text-xs text-amber-900">{message.error_message}</p>}
      {entries !== null && (
        <div className="mt-2">
          <button
            type="button"
            aria-expanded={showThinking}
            aria-controls={thinkingId}
            onClick={() => setShowThinking((v) => !v)}
            className="rounded font-mono text-xs font-semibold text-brand-700 hover:underline"
          >
            {showThinking ? '[Hide Thinking]' : '[Show Thinking]'}
          </button>
          {showThinking && (
            <ul id={thinkingId} className="mt-2 space-y-1 rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-700">
              {entries.length === 0 ? (
                <li className="italic">No thinking recorded.</li>
              ) : (
                entries.map((entry, index) => (
                  <li
                    key={index}
                    className={`break-words whitespace-pre-wrap ${entry.type === 'error' ? 'text-red-700' : ''}`}
                  >
                    {thinkingEntryText(entry)}
                  </li>
                ))
              )}
            </ul>
          )}
        </div>
      )}
      {!isUser && usage.length > 0 && <p className="mt-2 text-xs text-slate-500">{usage.join(' · ')}</p>}
    </li>
  );
}
