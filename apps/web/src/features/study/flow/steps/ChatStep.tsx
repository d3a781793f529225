import type { FlowStepView } from '@studychat/contracts/web';
import { currentUser } from '../../../../lib/session';
import { ChatPanel } from '../../chat/ChatPanel';
import { useChat } from '../../chat/useChat';

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
  return (
    <ChatPanel
      experimentId={experimentId}
      title={step.title}
      intro={step.intro}
      chat={chat}
      rule={step.completion}
      onProceed={onProceed}
    />
  );
}
