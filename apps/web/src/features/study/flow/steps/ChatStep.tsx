import type { FlowStepView } from '@studychat/contracts/web';
import { currentUser } from '../../../../lib/session';
import { ChatPanel } from '../../chat/ChatPanel';
import { useChat } from '../../chat/useChat';
import { useArmTime, type ArmTime } from './chat-minutes';

type ChatView = Extract<FlowStepView, { type: 'chat' }>;

/** What the participant is told of the arm's minutes once chatting; null when there is nothing to say. */
export function minutesNote(time: ArmTime, ruleMet: boolean): string | null {
  if (time.maxPassed) return 'The time for this conversation is up. You may select Proceed to continue.';
  if (ruleMet && !time.minPassed) {
    const minutes = time.minutesToMin === 1 ? '1 more minute' : `${time.minutesToMin} more minutes`;
    return `Please keep the conversation going: you can proceed in about ${minutes}.`;
  }
  return null;
}

/**
 * A flow's chat step: the condition's arm, its own completion rule (rounds and points after its least minutes, or
 * its most minutes passed); Proceed asks the server for the next step.
 */
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
  const time = useArmTime(step, chat.threadId !== null);
  const ruleMet = chat.progress.complete;
  const complete = (ruleMet && time.minPassed) || time.maxPassed;
  return (
    <ChatPanel
      experimentId={experimentId}
      title={step.title}
      intro={step.intro}
      chat={{ ...chat, progress: { ...chat.progress, complete } }}
      rule={step.completion}
      note={minutesNote(time, ruleMet)}
      onProceed={onProceed}
    />
  );
}
