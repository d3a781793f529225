import { CHAT_POINTS_TARGET, CHAT_ROUNDS_TARGET } from '@studychat/contracts/web';
import { Button } from '../../components/Button';
import type { Progress } from './chat-types';

/** 'Engagement: x/100' shows whole points, capped at the target; rounds likewise. */
export function engagementText(progress: Progress): string {
  return `Engagement: ${Math.min(Math.floor(progress.points), CHAT_POINTS_TARGET)}/${CHAT_POINTS_TARGET}`;
}

export function roundsText(progress: Progress): string {
  return `Rounds: ${Math.min(progress.rounds, CHAT_ROUNDS_TARGET)}/${CHAT_ROUNDS_TARGET}`;
}

/** The chat footer: progress towards completion and Proceed, enabled once complete or ended by a limit. */
export function ChatProgressBar({
  progress,
  canProceed,
  onProceed,
}: {
  progress: Progress;
  canProceed: boolean;
  onProceed: () => void;
}) {
  const percent = Math.min(100, Math.floor((progress.points / CHAT_POINTS_TARGET) * 100));
  return (
    <div className="flex items-center gap-3 border-t border-slate-200 bg-slate-50 px-3 py-2 sm:px-6">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap gap-x-4 text-sm font-medium text-slate-800">
          <span>{engagementText(progress)}</span>
          <span>{roundsText(progress)}</span>
        </p>
        <div aria-hidden="true" className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-slate-200">
          <div
            className={`h-full rounded-full transition-[width] ${progress.complete ? 'bg-green-600' : 'bg-brand-500'}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      <Button onClick={onProceed} disabled={!canProceed} aria-describedby="chat-proceed-help">
        Proceed
      </Button>
      <span id="chat-proceed-help" className="sr-only">
        {canProceed
          ? 'Continue to the last step of the study.'
          : 'Available after at least 3 rounds and 100 engagement points.'}
      </span>
    </div>
  );
}
