import type { Condition } from '@studychat/contracts/web';
import { NumberInput, TextInput } from './fields';
import { TextList } from './ListEditor';

/**
 * A condition's chat: the system prompt, the greetings, the model settings and the completion rule. Empty
 * settings are "not set": the deployment's model, tokens and thinking, and the spec's 3 rounds and 100 points.
 */
export function ChatForm({ condition }: { condition: Condition }) {
  const chat = ['chat', 'conditions', condition] as const;
  const settings = [...chat, 'settings'] as const;
  const rule = ['chat', 'completion', condition] as const;
  return (
    <>
      <TextInput path={[...chat, 'systemPrompt']} label={`System prompt (${condition} condition)`} rows={12} />
      <TextInput
        path={['chat', 'fallbackGreetings', condition]}
        label={`Fallback greeting (${condition} condition)`}
        hint="Shown when the first message can be neither streamed nor fetched."
        rows={2}
      />
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Model settings ({condition} condition)</legend>
        <p className="text-sm text-slate-600">Leave a setting empty to use the deployment’s.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextInput path={[...settings, 'model']} label={`Model (${condition} condition)`} optional />
          <TextInput
            path={[...settings, 'fallbackModel']}
            label={`Fallback model (${condition} condition)`}
            hint="The same provider's model that answers when this one is overloaded or keeps failing; it needs a price in the deployment's price table. Each reply it writes is marked in the data."
            optional
          />
          <NumberInput
            path={[...settings, 'temperature']}
            label={`Temperature (${condition} condition)`}
            hint="0 to 2."
          />
          <NumberInput path={[...settings, 'replyTokens']} label={`Reply tokens (${condition} condition)`} />
          <NumberInput
            path={[...settings, 'thinkingBudget']}
            label={`Thinking budget (${condition} condition)`}
            hint="0 (no thinking) or at least 1024 tokens."
          />
          <NumberInput
            path={[...settings, 'price', 'inputPerMTok']}
            label={`Price per million input tokens, USD (${condition} condition)`}
            hint="For a model the server has no price for (a local model, a provider's own name); such a model is refused without one."
          />
          <NumberInput
            path={[...settings, 'price', 'outputPerMTok']}
            label={`Price per million output tokens, USD (${condition} condition)`}
            hint="Give both prices, as your provider bills them."
          />
          <NumberInput
            path={[...settings, 'price', 'cacheWritePerMTok']}
            label={`Price per million tokens written to the prompt cache, USD (${condition} condition)`}
            hint="Optional. Empty: for a Claude model 1.25 x the input price, for any other the input price."
          />
          <NumberInput
            path={[...settings, 'price', 'cacheReadPerMTok']}
            label={`Price per million tokens read from the prompt cache, USD (${condition} condition)`}
            hint="Optional. Empty: for a Claude model 0.1 x the input price, for any other the input price."
          />
        </div>
      </fieldset>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Completion rule ({condition} condition)</legend>
        <p className="text-sm text-slate-600">Proceed opens after both; empty is the spec’s 3 rounds and 100 points.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <NumberInput path={[...rule, 'rounds']} label={`Rounds (${condition} condition)`} />
          <NumberInput path={[...rule, 'points']} label={`Points (${condition} condition)`} />
        </div>
      </fieldset>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">
          Scripted model ({condition} condition, used without a real model)
        </legend>
        <TextInput
          path={[...chat, 'scripted', 'opening']}
          label={`Scripted greeting (${condition} condition)`}
          rows={3}
        />
        <TextList
          path={[...chat, 'scripted', 'replies']}
          legend={`Scripted replies (${condition} condition)`}
          itemName="reply"
        />
        <TextInput
          path={[...chat, 'scripted', 'closing']}
          label={`Scripted closing (${condition} condition)`}
          rows={3}
        />
      </fieldset>
    </>
  );
}
