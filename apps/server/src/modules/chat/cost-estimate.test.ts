import { studyDefinition, threeArmTemplate, type FlowDefinition } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../llm/pricing.js';
import { builtInArms, flowArms } from './cost-estimate-arms.js';
import {
  CACHE_MIN_TOKENS,
  chatCalls,
  estimateCost,
  messageChars,
  tokensOf,
  type ArmPlan,
  type EstimateDefaults,
} from './cost-estimate.js';

const defaults: EstimateDefaults = { model: 'claude-sonnet-4-5', replyTokenLimit: 1024, thinkingBudget: 0 };

const chatArm = (condition: string, promptChars: number, extra: Partial<ArmPlan> = {}): ArmPlan => ({
  condition,
  label: condition,
  weight: 1,
  chats: [{ settings: undefined, promptChars, rounds: 2, points: 0 }],
  texts: [],
  ...extra,
});

describe('the cost estimate before launch', () => {
  it('counts a token per 4 characters and a message as long as the points rule needs, at least 100 characters', () => {
    expect(tokensOf(8000)).toBe(2000);
    expect(tokensOf(9)).toBe(3);
    expect(messageChars(3, 100)).toBe(100); // the spec's rule needs 140 characters in all: 47 each
    expect(messageChars(2, 500)).toBe(480); // (500 - 20) x 2 = 960 characters over 2 rounds
  });

  it('reads the previous call’s input from the cache and writes the rest, from the opening on', () => {
    const calls = chatCalls({ promptTokens: 2000, rounds: 2, messageTokens: 25, replyTokens: 300, caching: true });
    expect(calls).toEqual([
      { inputTokens: 2000, outputTokens: 300, cacheWriteTokens: 2000, cacheReadTokens: 0 },
      { inputTokens: 2325, outputTokens: 300, cacheWriteTokens: 325, cacheReadTokens: 2000 },
      { inputTokens: 2650, outputTokens: 300, cacheWriteTokens: 325, cacheReadTokens: 2325 },
    ]);
    const plain = chatCalls({ promptTokens: 2000, rounds: 2, messageTokens: 25, replyTokens: 300, caching: false });
    expect(plain.every((c) => c.cacheReadTokens === 0 && c.cacheWriteTokens === 0)).toBe(true);
  });

  it('caches nothing below the minimum prompt length', () => {
    const calls = chatCalls({ promptTokens: 100, rounds: 1, messageTokens: 25, replyTokens: 300, caching: true });
    expect(CACHE_MIN_TOKENS).toBeGreaterThan(425);
    expect(calls.every((c) => c.cacheReadTokens === 0 && c.cacheWriteTokens === 0)).toBe(true);
  });

  it('prices each kind of token at its own rate, per participant, per arm and in total at the sample size', () => {
    // 2,000-token prompt, 2 rounds of 100-character (25-token) messages, 300-token replies, Sonnet 4.5 ($3/$15,
    // cache writes $3.75, reads $0.30): uncached 6,975 input + 900 output; cached 2,650 written + 4,325 read.
    const estimate = estimateCost([chatArm('a', 8000), chatArm('b', 8000)], defaults, DEFAULT_PRICES, 10);
    const [a] = estimate.arms;
    expect(a?.calls).toBe(3);
    expect(a?.inputTokens).toBe(6975);
    expect(a?.outputTokens).toBe(900);
    expect(a?.perParticipant.uncached).toBeCloseTo(0.034425, 9);
    expect(a?.perParticipant.cached).toBeCloseTo(0.024735, 9);
    expect(a?.share).toBe(0.5);
    expect(a?.participants).toBe(5);
    expect(a?.total.uncached).toBeCloseTo(0.172125, 9);
    expect(estimate.total.uncached).toBeCloseTo(0.34425, 9);
    expect(estimate.total.cached).toBeCloseTo(0.24735, 9);
    expect(estimate.perParticipant.cached).toBeCloseTo(0.024735, 9);
    expect(estimate.assumptions.join(' ')).toContain('one per 4 characters');
  });

  it('caps the reply at the arm’s reply tokens and counts extended thinking at its budget', () => {
    const capped = chatArm('a', 400, {
      chats: [{ settings: { replyTokens: 100, thinkingBudget: 1000 }, promptChars: 400, rounds: 1, points: 0 }],
    });
    const [arm] = estimateCost([capped], defaults, DEFAULT_PRICES, 1).arms;
    expect(arm?.outputTokens).toBe(2 * (100 + 1000));
  });

  it('leaves a model without a price unknown (null), naming it, and the total with it', () => {
    const unknown = chatArm('a', 400, {
      chats: [{ settings: { model: 'my-local-model' }, promptChars: 400, rounds: 1, points: 0 }],
    });
    const estimate = estimateCost([unknown, chatArm('b', 400)], defaults, DEFAULT_PRICES, 10);
    expect(estimate.arms[0]?.unpriced).toEqual(['my-local-model']);
    expect(estimate.arms[0]?.perParticipant).toEqual({ uncached: null, cached: null });
    expect(estimate.arms[1]?.perParticipant.uncached).toBeGreaterThan(0);
    expect(estimate.total).toEqual({ uncached: null, cached: null });
  });

  it('uses the condition’s own price over the table, and a model without prompt caching costs the same either way', () => {
    const own = chatArm('a', 8000, {
      chats: [
        {
          settings: { model: 'my-local-model', price: { inputPerMTok: 1, outputPerMTok: 2 } },
          promptChars: 8000,
          rounds: 1,
          points: 0,
        },
      ],
    });
    const [arm] = estimateCost([own], defaults, DEFAULT_PRICES, 1).arms;
    expect(arm?.perParticipant.uncached).toBeCloseTo(((2000 + 2325) * 1 + 600 * 2) / 1e6, 9);
    expect(arm?.perParticipant.cached).toBe(arm?.perParticipant.uncached);
  });

  it('estimates the built-in study: every condition chats on its own prompt and rule, equally likely', () => {
    const arms = builtInArms(studyDefinition);
    expect(arms.map((a) => a.condition)).toEqual(['mmr', 'control']);
    expect(arms[0]?.chats[0]?.promptChars).toBe(studyDefinition.chat.conditions.mmr.systemPrompt.length);
    expect(arms[0]?.chats[0]?.rounds).toBe(3);
    const estimate = estimateCost(arms, defaults, DEFAULT_PRICES, 100);
    expect(estimate.arms.map((a) => a.participants)).toEqual([50, 50]);
    for (const arm of estimate.arms) {
      expect(arm.calls).toBe(4);
      expect(arm.perParticipant.cached).toBeLessThanOrEqual(arm.perParticipant.uncached ?? 0);
    }
  });

  it('estimates a flow: chat arms with pipes at their longest, AI texts as one call, an arm with no chat at 0', () => {
    const arms = flowArms(threeArmTemplate);
    const byId = Object.fromEntries(arms.map((a) => [a.condition, a]));
    expect(byId.none?.chats).toEqual([]);
    expect(byId.chatbot?.chats).toHaveLength(1);
    const estimate = estimateCost(arms, defaults, DEFAULT_PRICES, 300);
    const none = estimate.arms.find((a) => a.condition === 'none');
    expect(none?.calls).toBe(byId.none?.texts.length ?? 0);
    if (none?.calls === 0) expect(none.perParticipant).toEqual({ uncached: 0, cached: 0 });
    expect(estimate.arms.map((a) => a.participants)).toEqual([100, 100, 100]);
  });

  it('reads a flow’s randomisation weights, its pipes and the conditions each step names', () => {
    const flow: FlowDefinition = {
      format: 'flow',
      id: 'f',
      title: 'F',
      texts: { welcome: 'w', disclaimer: 'd' },
      conditions: [
        { id: 'talk', label: 'Talk' },
        { id: 'quiet', label: 'Quiet' },
      ],
      pathways: [{ key: 'complete', label: 'Complete' }],
      steps: [
        {
          id: 'q',
          type: 'questions',
          title: 'Q',
          button: 'Next',
          questions: [
            {
              key: 'view',
              text: 'Your view?',
              required: true,
              type: 'text',
              minChars: 1,
              maxChars: 500,
              multiline: true,
            },
          ],
        },
        {
          id: 'summary',
          type: 'ai_text',
          title: 'S',
          instructions: 'i',
          prompt: 'Sum up: {{view}}',
          allowCorrection: true,
          maxChars: 400,
          confirmLabel: 'OK',
          scripted: 's',
        },
        { id: 'assign', type: 'randomise', weights: { talk: 3, quiet: 1 } },
        {
          id: 'chat',
          type: 'chat',
          conditions: ['talk'],
          title: 'C',
          intro: 'i',
          arms: {
            talk: {
              systemPrompt: 'They said {{summary}}.',
              openingInstruction: 'Greet them.',
              fallbackGreeting: 'Hi',
              completion: { rounds: 4, points: 0 },
              scripted: { opening: 'o', replies: ['r'], closing: 'c' },
              model: { provider: 'openai', model: 'gpt-5-mini' },
            },
          },
        },
        { id: 'end', type: 'end', pathway: 'complete', title: 'End', blocks: [] },
      ],
    };
    const arms = flowArms(flow);
    const [talk, quiet] = arms;
    expect(talk?.weight).toBe(3);
    expect(quiet?.weight).toBe(1);
    expect(talk?.texts).toEqual([{ settings: undefined, promptChars: 'Sum up: '.length + 500, maxChars: 400 }]);
    expect(talk?.chats[0]).toMatchObject({
      rounds: 4,
      promptChars: 'They said .\n\nWhen the conversation opens: Greet them.'.length + 400,
    });
    expect(quiet?.chats).toEqual([]);
    expect(quiet?.texts).toHaveLength(1);
    const estimate = estimateCost(arms, defaults, DEFAULT_PRICES, 100);
    expect(estimate.arms.map((a) => [a.participants, a.calls, a.models])).toEqual([
      [75, 6, ['gpt-5-mini', 'claude-sonnet-4-5']],
      [25, 1, ['claude-sonnet-4-5']],
    ]);
  });
});
