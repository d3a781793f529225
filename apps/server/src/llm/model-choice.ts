import type { ChatModel, LlmProvider } from './chat-model.js';

// Which model a study's chat arm or AI text step calls (issue 30: a model comparison's arms differ by provider).
// The deployment's configured provider answers every step that names no provider or names it; a step naming
// another provider calls that provider's model when its key is configured. An offline deployment (the scripted
// model) plays every arm, so a study written for two providers can be walked without keys.

/** The deployment's models: its configured one, and one per other provider with a key. */
export interface ChatModels {
  llm: ChatModel;
  providers?: Partial<Record<LlmProvider, ChatModel>> | undefined;
}

/** The model for a step naming `provider` (absent: the deployment's); null when that provider is not configured. */
export function modelFor(models: ChatModels, provider: LlmProvider | undefined): ChatModel | null {
  const primary = models.llm;
  if (provider === undefined || provider === primary.provider || primary.provider === 'scripted') return primary;
  return models.providers?.[provider] ?? null;
}

/** Which providers a study may name on this deployment (every one when the offline model plays them all). */
export function providersAvailable(models: ChatModels): readonly LlmProvider[] {
  if (models.llm.provider === 'scripted') return ['anthropic', 'openai', 'scripted'];
  return [models.llm.provider, ...(Object.keys(models.providers ?? {}) as LlmProvider[])];
}
