import { CHAT_CLOSED_TEXT, chatAllowsProceed, chatRuleFor } from '@studychat/contracts/web';
import { use, useMemo, useState } from 'react';
import { useNavigate, useParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { StudyFooter } from '../../../components/StudyFooter';
import { currentUser } from '../../../lib/session';
import { useParticipant } from '../participant-store';
import { StudyContext } from '../study-context';
import { readStudySession } from '../study-storage';
import { ChatInput } from './ChatInput';
import { ChatProgressBar } from './ChatProgressBar';
import { clearChat } from './chat-storage';
import { MessageList } from './MessageList';
import { reportBlockedPaste } from './paste-report';
import { StartConversation } from './StartConversation';
import { useChat } from './useChat';
import { useViewportHeight } from './useViewportHeight';

export const COMPLETION_TEXT =
  'You have reached the engagement goal. You may select Proceed to finish the study, or keep chatting if you would like.';

/** `/experiment/:experimentId/chat`: the AI chat with its progress footer and Proceed. */
export function ChatPage() {
  const { experimentId } = useParams();
  const user = currentUser();
  const navigate = useNavigate();
  const { journey } = useParticipant();
  const study = use(StudyContext);
  const [condition] = useState(() => journey?.condition ?? readStudySession().assignedCondition);
  // The condition's completion rule in the experiment's study (the spec's unless it sets one); read from the
  // study the guard loaded, not the built-in one (which would add the whole study text to this page).
  const completion = study?.chat.completion;
  const rule = useMemo(() => chatRuleFor(completion, condition), [completion, condition]);
  // The server's thread, so another device (or cleared storage) resumes the same conversation.
  // The study's canned greeting for the condition, if the opening can be neither streamed nor fetched.
  const greeting = condition ? study?.chat.fallbackGreetings[condition] : undefined;
  const chat = useChat(experimentId, user?.userId, condition, journey?.chat.threadId ?? null, rule, greeting);
  const viewportHeight = useViewportHeight();
  const [startedHere, setStartedHere] = useState(false);

  const canProceed = chatAllowsProceed(chat.progress);
  const closed = chat.progress.closed;
  const proceed = () => {
    if (!canProceed) return;
    if (experimentId) clearChat(experimentId);
    void navigate('/post-survey');
  };

  const hasThread = chat.status !== 'idle' && chat.status !== 'starting';

  return (
    <>
      <main
        className="mx-auto flex h-[100dvh] w-full max-w-3xl flex-col bg-white sm:border-x sm:border-slate-200"
        style={viewportHeight ? { height: viewportHeight } : undefined}
      >
        <header className="border-b border-slate-200 px-4 py-3 sm:px-6">
          <h1 className="text-lg font-semibold text-slate-900 sm:text-xl">Chat with the AI assistant</h1>
        </header>
        {hasThread ? (
          <MessageList messages={chat.messages} busy={chat.status === 'streaming'} />
        ) : (
          <StartConversation
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
        {chat.progress.complete && !closed && (
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
      <StudyFooter experimentId={experimentId} />
    </>
  );
}
