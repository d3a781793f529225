import { CHAT_CLOSED_TEXT, chatAllowsProceed, type ChatRule, type ChatTimeRule } from '@studychat/contracts/web';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { ChatInput } from './ChatInput';
import { ChatProgressBar } from './ChatProgressBar';
import { clearChat } from './chat-storage';
import { MessageList } from './MessageList';
import { reportBlockedPaste } from './paste-report';
import { StartConversation } from './StartConversation';
import type { useChat } from './useChat';
import { useViewportHeight } from './useViewportHeight';

export const COMPLETION_TEXT =
  'You have reached the engagement goal. You may select Proceed to finish the study, or keep chatting if you would like.';

/**
 * The chat on screen, for the built-in study's chat page and a flow's chat step alike: the start screen (the
 * study's intro, else the condition's rule in words), the messages, errors, the closed or complete notice, the
 * message box, and the progress bar whose Proceed calls `onProceed` once the chat allows it.
 */
export function ChatPanel({
  experimentId,
  title,
  intro,
  chat,
  rule,
  note,
  onProceed,
}: {
  experimentId: string | undefined;
  title: string;
  intro?: string;
  chat: ReturnType<typeof useChat>;
  rule: ChatRule & ChatTimeRule;
  /** A line about the chat's time (a flow arm's least or most minutes), shown while chatting. */
  note?: string | null;
  onProceed: () => void;
}) {
  const viewportHeight = useViewportHeight();
  const [startedHere, setStartedHere] = useState(false);
  const canProceed = chatAllowsProceed(chat.progress);
  const closed = chat.progress.closed;
  const hasThread = chat.status !== 'idle' && chat.status !== 'starting';
  const proceed = () => {
    if (!canProceed) return;
    if (experimentId) clearChat(experimentId);
    onProceed();
  };
  return (
    <main
      className="mx-auto flex h-[100dvh] w-full max-w-3xl flex-col bg-white sm:border-x sm:border-slate-200"
      style={viewportHeight ? { height: viewportHeight } : undefined}
    >
      <header className="border-b border-slate-200 px-4 py-3 sm:px-6">
        <h1 className="text-lg font-semibold text-slate-900 sm:text-xl">{title}</h1>
      </header>
      {hasThread ? (
        <MessageList messages={chat.messages} busy={chat.status === 'streaming'} />
      ) : (
        <StartConversation
          intro={intro}
          rule={rule}
          onStart={() => {
            setStartedHere(true);
            void chat.start();
          }}
          starting={chat.status === 'starting'}
        />
      )}
      {chat.error && (
        <div className="px-3 pt-2 sm:px-6">
          <Alert className="flex items-start justify-between gap-3">
            <span>{chat.error}</span>
            <button
              type="button"
              onClick={chat.dismissError}
              className="-my-2 -mr-2 min-h-11 min-w-11 shrink-0 rounded-lg text-sm font-semibold underline"
            >
              Dismiss
            </button>
          </Alert>
        </div>
      )}
      {note && hasThread && !closed && (
        <p role="status" className="mx-3 mt-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-950 sm:mx-6">
          {note}
        </p>
      )}
      {chat.progress.complete && !closed && !note && (
        <p role="status" className="mx-3 mt-2 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900 sm:mx-6">
          {COMPLETION_TEXT}
        </p>
      )}
      {closed && (
        <p
          role="status"
          className="mx-3 my-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 sm:mx-6 sm:text-base"
        >
          {CHAT_CLOSED_TEXT[closed.reason]}
        </p>
      )}
      {hasThread && !closed && (
        <ChatInput
          value={chat.draft}
          onChange={chat.setDraft}
          onSend={() => void chat.send()}
          canSend={chat.status === 'ready' && chat.threadId !== null}
          maxChars={chat.limits.maxMessageChars}
          messagesLeft={chat.limits.messagesLeft}
          autoFocus={startedHere}
          onPasteBlocked={(length) => {
            if (experimentId) reportBlockedPaste(experimentId, length);
          }}
        />
      )}
      <ChatProgressBar progress={chat.progress} rule={rule} canProceed={canProceed} onProceed={proceed} />
    </main>
  );
}
