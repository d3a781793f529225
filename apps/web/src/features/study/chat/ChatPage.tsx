import { chatRuleFor } from '@studychat/contracts/web';
import { use, useMemo, useState } from 'react';
import { useNavigate, useParams } from '../../../lib/router';
import { StudyFooter } from '../../../components/StudyFooter';
import { currentUser } from '../../../lib/session';
import { useParticipant } from '../participant-store';
import { StudyContext } from '../study-context';
import { readStudySession } from '../study-storage';
import { ChatPanel } from './ChatPanel';
import { useChat } from './useChat';

export { COMPLETION_TEXT } from './ChatPanel';

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
  return (
    <>
      <ChatPanel
        experimentId={experimentId}
        title="Chat with the AI assistant"
        chat={chat}
        rule={rule}
        onProceed={() => navigate('/post-survey')}
      />
      <StudyFooter experimentId={experimentId} />
    </>
  );
}
