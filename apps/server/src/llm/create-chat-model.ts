import { studyDefinition } from '@studychat/contracts';
import { DEFAULT_MODELS, type LlmConfig } from '../config.js';
import { createAnthropicModel } from './anthropic.model.js';
import type { ChatModel, LlmProvider } from './chat-model.js';
import { createOpenAiModel } from './openai.model.js';
import { defaultRetryPolicy, type RetryPolicy } from './retry.js';
import { createScriptedModel, type Scripts } from './scripted.model.js';

/** The built-in study's scripted texts per condition (a request carries its own version's `script`). */
export function studyScripts(): Scripts {
  return Object.fromEntries(
    Object.entries(studyDefinition.chat.conditions).map(([condition, chat]) => [condition, chat.scripted]),
  );
}

/** The scripted model on the study's texts; `wordDelayMs` 0 streams at once (tests). */
export function createStudyScriptedModel(wordDelayMs = 0): ChatModel {
  return createScriptedModel({ scripts: studyScripts(), wordDelayMs });
}

/** Pause between scripted words in a running server, so the chat looks like a live stream. */
const SCRIPTED_WORD_DELAY_MS = 25;

/** The chat model the configuration asks for (config.ts has already checked the keys are there). */
export function createChatModel(
  config: LlmConfig,
  retry: RetryPolicy = defaultRetryPolicy(config.retryBudgetMs),
): ChatModel {
  switch (config.provider) {
    case 'anthropic':
      return createAnthropicModel({
        apiKey: config.anthropicApiKey ?? '',
        baseUrl: config.anthropicBaseUrl,
        model: config.model,
        maxTokens: config.maxTokens,
        thinkingBudget: config.thinkingBudget,
        timeoutMs: config.timeoutMs,
        retry,
      });
    case 'openai':
      return createOpenAiModel({
        apiKey: config.openaiApiKey,
        baseUrl: config.openaiBaseUrl,
        model: config.model,
        maxTokens: config.maxTokens,
        timeoutMs: config.timeoutMs,
        retry,
      });
    case 'scripted':
      return createStudyScriptedModel(SCRIPTED_WORD_DELAY_MS);
  }
}

/** The other providers' models a study's arm may name (docs/decisions/0075): each one whose key is configured. */
export function createOtherChatModels(
  config: LlmConfig,
  retry: RetryPolicy = defaultRetryPolicy(config.retryBudgetMs),
): Partial<Record<LlmProvider, ChatModel>> {
  const others: Partial<Record<LlmProvider, ChatModel>> = {};
  if (config.provider === 'scripted') return others;
  if (config.provider !== 'anthropic' && config.anthropicApiKey) {
    others.anthropic = createChatModel(
      { ...config, provider: 'anthropic', model: DEFAULT_MODELS.anthropic, thinkingBudget: 0 },
      retry,
    );
  }
  if (config.provider !== 'openai' && (config.openaiApiKey || config.openaiBaseUrl)) {
    others.openai = createChatModel({ ...config, provider: 'openai', model: DEFAULT_MODELS.openai }, retry);
  }
  return others;
}
