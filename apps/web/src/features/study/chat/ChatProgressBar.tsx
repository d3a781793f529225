import { SPEC_CHAT_RULE, type ChatRule } from '@studychat/contracts/web';
import { Button } from '../../../components/Button';
import type { Progress } from './chat-types';

/** 'Engagement: x/100' shows whole points, capped at the rule's target (the spec's 100 unless the study sets one). */
export function engagementText(progress: Progress, rule: ChatRule = SPEC_CHAT_RULE): string {
  return `Engagement: ${Math.min(Math.floor(progress.points), rule.points)}/${rule.points}`;
}

/** 'Rounds: x/3', capped at the rule's target likewise. */
export function roundsText(progress: Progress, rule: ChatRule = SPEC_CHAT_RULE): string {
  return `Rounds: ${Math.min(progress.rounds, rule.rounds)}/${rule.rounds}`;
}

/** The bar's fill: points towards the target (full at once when the target is 0 points). */
function percentOf(progress: Progress, rule: ChatRule): number {
  if (rule.points <= 0) return 100;
  return Math.min(100, Math.floor((progress.points / rule.points) * 100));
}

/** The chat footer: progress towards completion and Proceed, enabled once complete or ended by a limit. */
export function ChatProgressBar({
  progress,
  rule = SPEC_CHAT_RULE,
  canProceed,
  onProceed,
}: {
  progress: Progress;
  /** The condition's completion rule (the study's, or the spec's). */
  rule?: ChatRule;
  canProceed: boolean;
  onProceed: () => void;
}) {
  const percent = percentOf(progress, rule);
  return (
    <div className="flex items-center gap-3 border-t border-slate-200 bg-slate-50 px-3 py-2 sm:px-6">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap gap-x-4 text-sm font-medium text-slate-800">
          <span>{engagementText(progress, rule)}</span>
          <span>{roundsText(progress, rule)}</span>
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
          : `Available after at least ${rule.rounds} ${rule.rounds === 1 ? 'round' : 'rounds'} and ${rule.points} engagement points.`}
      </span>
    </div>
  );
}
