import type { Condition, ConditionChat } from '@studychat/contracts';
import type { ChatModel, ChatReplyInfo, ChatRequest, ChatTurn } from './chat-model.js';

export const SCRIPTED_MODEL_NAME = 'scripted-offline';
/** The scripted model's reply bound when a request names none. */
const SCRIPTED_MAX_TOKENS = 1024;

export type Scripts = Record<Condition, ConditionChat['scripted']>;

export interface ScriptedModelOptions {
  scripts: Scripts;
  /** Pause between words, so the stream looks like a real one in demos; 0 in tests. */
  wordDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const words = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/[a-z0-9%.-]+/g) ?? []).filter((w) => w.length > 3));

/** Which scripted text answers this history, and why (the reason goes into the thinking log). */
export function chooseScriptedReply(
  script: ConditionChat['scripted'],
  history: readonly ChatTurn[],
): {
  text: string;
  reason: string;
} {
  const userTurns = history.filter((t) => t.role === 'user');
  const last = userTurns.at(-1);
  if (!last) return { text: script.opening, reason: 'opening message' };

  const said = new Set(history.filter((t) => t.role === 'assistant').map((t) => t.content));
  const unused = script.replies.filter((r) => !said.has(r));
  if (unused.length > 0) {
    // The unused reply sharing most words with the question; ties go to the script's order.
    const asked = words(last.content);
    let best = unused[0] ?? '';
    let bestScore = -1;
    for (const reply of unused) {
      let score = 0;
      for (const w of words(reply)) if (asked.has(w)) score += 1;
      if (score > bestScore) {
        best = reply;
        bestScore = score;
      }
    }
    return { text: best, reason: `scripted reply ${script.replies.indexOf(best) + 1} of ${script.replies.length}` };
  }
  if (!said.has(script.closing)) return { text: script.closing, reason: 'closing message' };
  const index = (userTurns.length - 1) % Math.max(1, script.replies.length);
  return { text: script.replies[index] ?? script.closing, reason: `scripted reply ${index + 1}, repeated` };
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The offline model: deterministic, condition-aware replies written from the study's own content,
 * streamed word by word. It never pretends to be a real model: its name says so in every stored message.
 */
export function createScriptedModel(options: ScriptedModelOptions): ChatModel {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    provider: 'scripted',
    model: SCRIPTED_MODEL_NAME,
    // Free, but bounded like a real model's reply, so spending rules see the same shape.
    maxOutputTokens: (request) => request.maxTokens ?? SCRIPTED_MAX_TOKENS,
    async streamReply(request: ChatRequest, onText): Promise<ChatReplyInfo> {
      const script = request.script ?? options.scripts[request.condition];
      if (!script) throw new Error(`no scripted texts for condition "${request.condition}"`);
      const { text, reason } = chooseScriptedReply(script, request.history);
      const pieces = text.match(/\s*\S+/g) ?? [];
      for (const piece of pieces) {
        if (options.wordDelayMs > 0) await sleep(options.wordDelayMs);
        onText(piece);
      }
      const input = request.system + request.history.map((t) => t.content).join('\n');
      return {
        model: SCRIPTED_MODEL_NAME,
        inputTokens: estimateTokens(input),
        outputTokens: pieces.length,
        cacheWriteTokens: null,
        cacheReadTokens: null,
        stopReason: 'end_turn',
        thinking: [
          {
            type: 'thinking',
            thinking: `Scripted offline model, no real AI: ${reason} for the ${request.condition} condition.`,
          },
        ],
      };
    },
  };
}
