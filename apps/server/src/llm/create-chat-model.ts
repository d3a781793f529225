import { studyDefinition } from '@studychat/contracts';
import type { LlmConfig } from '../config.js';
import { createAnthropicModel } from './anthropic.model.js';
import type { ChatModel } from './chat-model.js';
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
