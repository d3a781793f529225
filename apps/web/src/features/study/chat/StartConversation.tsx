import { SPEC_CHAT_RULE, type ChatRule, type ChatTimeRule } from '@studychat/contracts/web';
import { Button } from '../../../components/Button';

/** What the start screen says before a chat: the study's intro, else how the chat is done by its rule. */
export function startText(rule: ChatRule & ChatTimeRule): string {
  const exchanges = rule.rounds === 1 ? '1 exchange' : `${rule.rounds} exchanges`;
  const bar = rule.points > 0 ? ' and the engagement bar is full' : '';
  const least = rule.minMinutes ? `, and at least ${minutes(rule.minMinutes)} have passed` : '';
  const most = rule.maxMinutes
    ? ` After ${minutes(rule.maxMinutes)} you can proceed however many exchanges you have had.`
    : '';
  return `Next, you will have a short conversation with an AI assistant. Ask questions or share your thoughts in your own words. Once you have had at least ${exchanges}${bar}${least}, you can proceed to the last step.${most}`;
}

const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

/** Shown before a thread exists. */
export function StartConversation({
  onStart,
  starting,
  rule = SPEC_CHAT_RULE,
  intro,
}: {
  onStart: () => void;
  starting: boolean;
  /** The condition's completion rule (the spec's: at least 3 exchanges and a full engagement bar). */
  rule?: ChatRule & ChatTimeRule;
  /** A flow's own words before the chat (issue 30). */
  intro?: string;
}) {
  return (
    <div className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto px-4 py-8 text-center">
      <h2 className="text-xl font-semibold text-slate-900">Ready when you are</h2>
      <p className="mt-3 max-w-md text-base text-slate-700">{intro ?? startText(rule)}</p>
      <Button className="mt-6 min-h-12 px-8 text-lg" onClick={onStart} disabled={starting}>
        {starting ? 'Starting…' : 'Start Conversation'}
      </Button>
    </div>
  );
}
