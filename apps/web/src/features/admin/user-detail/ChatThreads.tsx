import { useState } from 'react';
import { Spinner } from '../../../components/Spinner';
import { formatDateTime } from '../format';
import { MessageItem } from './MessageItem';
import { useThreadMessages, useUserThreads } from './use-user-detail';

/** The user's chat threads beside the selected thread's messages. */
export function ChatThreads({ userId }: { userId: string }) {
  const threads = useUserThreads(userId);
  const [selected, setSelected] = useState<string | null>(null);

  if (threads.isPending) return <Spinner label="Loading threads..." />;
  // A failure here is only logged (spec section 8).
  if (threads.isError) return null;
  if (threads.data.length === 0) return <p className="text-slate-600">This user has no chat threads.</p>;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(16rem,1fr)_2fr]">
      <ul aria-label="Threads" className="max-h-[60vh] space-y-2 overflow-y-auto pr-1">
        {threads.data.map((thread) => {
          const active = thread.id === selected;
          return (
            <li key={thread.id}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => setSelected(thread.id)}
                className={`w-full rounded-lg border px-3 py-2 text-left ${active ? 'border-brand-500 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50'}`}
              >
                <span className="block font-medium break-words text-slate-900">
                  {thread.title || 'Untitled Thread'}
                </span>
                <span className="mt-0.5 block text-xs text-slate-600">
                  {thread.message_count} {thread.message_count === 1 ? 'message' : 'messages'} · Last activity:{' '}
                  {formatDateTime(thread.last_message_at)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="min-w-0 rounded-lg border border-slate-200 bg-slate-50/50 p-3">
        <MessagePane userId={userId} threadId={selected} />
      </div>
    </div>
  );
}

function MessagePane({ userId, threadId }: { userId: string; threadId: string | null }) {
  const messages = useThreadMessages(userId, threadId);
  if (threadId === null) return <p className="text-slate-600">Select a thread to view messages</p>;
  if (messages.isPending) return <Spinner label="Loading messages..." />;
  if (messages.isError) return null;
  if (messages.data.length === 0) return <p className="text-slate-600">No messages in this thread</p>;
  return (
    <ol aria-label="Messages" className="max-h-[60vh] space-y-3 overflow-y-auto">
      {messages.data.map((message) => (
        <MessageItem key={message.id} message={message} />
      ))}
    </ol>
  );
}
