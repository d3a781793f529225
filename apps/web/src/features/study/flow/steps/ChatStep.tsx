import { CHAT_CLOSED_TEXT, chatAllowsProceed, type FlowStepView } from '@studychat/contracts/web';
import { useState } from 'react';
import { Alert } from '../../../../components/Alert';
import { currentUser } from '../../../../lib/session';
import { ChatInput } from '../../chat/ChatInput';
import { ChatProgressBar } from '../../chat/ChatProgressBar';
import { clearChat } from '../../chat/chat-storage';
import { MessageList } from '../../chat/MessageList';
import { reportBlockedPaste } from '../../chat/paste-report';
import { StartConversation } from '../../chat/StartConversation';
import { useChat } from '../../chat/useChat';
import { useViewportHeight } from '../../chat/useViewportHeight';

type ChatView = Extract<FlowStepView, { type: 'chat' }>;

/** A flow's chat step: the condition's arm, its own completion rule; Proceed asks the server for the next step. */
export function ChatStep({
  experimentId,
  step,
  condition,
  onProceed,
}: {
  experimentId: string;
  step: ChatView;
  condition: string | null;
  onProceed: () => void;
}) {
  const user = currentUser();
  const chat = useChat(experimentId, user?.userId, condition, step.threadId, step.completion, step.fallbackGreeting);
  const viewportHeight = useViewportHeight();
  const [startedHere, setStartedHere] = useState(false);
  const canProceed = chatAllowsProceed(chat.progress);
  const closed = chat.progress.closed;
  const hasThread = chat.status !== 'idle' && chat.status !== 'starting';
  return (
    <div
      className="flex h-[100dvh] w-full flex-col bg-white sm:border-x sm:border-slate-200"
      style={viewportHeight ? { height: viewportHeight } : undefined}
    >
      <header className="border-b border-slate-200 px-4 py-3 sm:px-6">
        <h1 className="text-lg font-semibold text-slate-900 sm:text-xl">{step.title}</h1>
      </header>
      {hasThread ? (
        <MessageList messages={chat.messages} busy={chat.status === 'streaming'} />
      ) : (
        <StartConversation
          intro={step.intro}
          rule={step.completion}
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
          onPasteBlocked={(length) => reportBlockedPaste(experimentId, length)}
        />
      )}
      <ChatProgressBar
        progress={chat.progress}
        rule={step.completion}
        canProceed={canProceed}
        onProceed={() => {
          if (!canProceed) return;
          clearChat(experimentId);
          onProceed();
        }}
      />
    </div>
  );
}
