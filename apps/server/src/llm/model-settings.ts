import type { ChatModelSettings } from '@studychat/contracts';
import type { ChatRequest } from './chat-model.js';

/**
 * A study condition's chat model settings as request fields (docs/decisions/0032). Absent settings are
 * left out, so the adapter's configured ones apply; the condition's reply tokens stay within the
 * experiment's reply-token limit (its own or the environment's), which is a cost guard.
 */
export function modelSettings(
  settings: ChatModelSettings | undefined,
  replyTokenLimit: number,
): Pick<ChatRequest, 'model' | 'temperature' | 'thinkingBudget' | 'maxTokens'> {
  return {
    maxTokens: Math.min(settings?.replyTokens ?? replyTokenLimit, replyTokenLimit),
    ...(settings?.model !== undefined ? { model: settings.model } : {}),
    ...(settings?.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings?.thinkingBudget !== undefined ? { thinkingBudget: settings.thinkingBudget } : {}),
  };
}
