import type { ModelCheckReply, ModelProblem } from '@studychat/contracts';
import type { LlmConfig } from '../config.js';
import type { ChatModel } from './chat-model.js';
import { createChatModel, createStudyScriptedModel } from './create-chat-model.js';
import { ChatModelError } from './errors.js';
import { mergePrices, noPriceMessage, priceFor, type ModelPrice } from './pricing.js';
import { defaultRetryPolicy } from './retry.js';

/** The check waits at most this long for the provider, whatever the chat's own time-out. */
const CHECK_TIMEOUT_MS = 15_000;
/** Enough for a one-word answer; a reasoning model may spend it thinking, which still proves the set-up. */
const CHECK_MAX_TOKENS = 64;

/** The configured model for the check: no retries (a problem should show at once) and a short time-out. */
export function createCheckModel(config: LlmConfig): ChatModel {
  if (config.provider === 'scripted') return createStudyScriptedModel();
  const timeoutMs = Math.min(config.timeoutMs, CHECK_TIMEOUT_MS);
  return createChatModel({ ...config, timeoutMs }, defaultRetryPolicy(0));
}

const DEFAULT_ENDPOINTS = { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com/v1' } as const;

function where(config: LlmConfig): { label: string; url: string; keyVar: string; urlVar: string } {
  if (config.provider === 'anthropic') {
    return {
      label: 'Anthropic',
      url: config.anthropicBaseUrl ?? DEFAULT_ENDPOINTS.anthropic,
      keyVar: 'ANTHROPIC_API_KEY',
      urlVar: 'ANTHROPIC_BASE_URL',
    };
  }
  return {
    label: config.openaiBaseUrl ? 'The OpenAI-compatible server' : 'OpenAI',
    url: config.openaiBaseUrl ?? DEFAULT_ENDPOINTS.openai,
    keyVar: 'OPENAI_API_KEY',
    urlVar: 'OPENAI_BASE_URL',
  };
}

/** What went wrong, in a category and in plain words for the researcher. */
export function explainFailure(error: unknown, config: LlmConfig): { problem: ModelProblem; message: string } {
  const w = where(config);
  if (!(error instanceof ChatModelError)) {
    return { problem: 'rejected', message: `The test request failed unexpectedly: ${String(error)}` };
  }
  const status = error.options.status;
  const code = error.options.providerCode ?? '';
  const said = `(Details: ${error.message})`;
  if (error.failure === 'quota') {
    return {
      problem: 'quota',
      message: `The ${w.label} account has no credit or quota left. Add credit or raise the limit in the provider's billing settings. ${said}`,
    };
  }
  if (status === 401 || code === 'authentication_error' || code === 'invalid_api_key') {
    return { problem: 'key', message: `${w.label} refused the API key. Check ${w.keyVar}. ${said}` };
  }
  if (status === 403 || code === 'permission_error') {
    return {
      problem: 'key',
      message: `The API key may not use this model or endpoint. Check ${w.keyVar} and the key's permissions. ${said}`,
    };
  }
  if (status === 404 || code === 'not_found_error' || code === 'model_not_found') {
    return {
      problem: 'model',
      message: `${w.label} does not know the model "${config.model}". Check LLM_MODEL (the provider's exact model name). ${said}`,
    };
  }
  switch (error.failure) {
    case 'rate_limited':
      return {
        problem: 'rate_limited',
        message: `${w.label} is limiting requests right now (429). The key works; if this persists during a study, ask the provider for a higher rate limit. ${said}`,
      };
    case 'unavailable':
      return {
        problem: 'unavailable',
        message: `${w.label} has a server problem or is overloaded. Try again in a few minutes. ${said}`,
      };
    case 'connection':
    case 'timeout':
      return {
        problem: 'network',
        message: `Could not reach ${w.url}. Check the network connection, any proxy or firewall, and ${w.urlVar}. ${said}`,
      };
    default:
      return { problem: 'rejected', message: `${w.label} refused the test request. ${said}` };
  }
}

const perMTok = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: 4 })}`;

/** The price the chat budget counts the model at. */
function priced(price: ModelPrice): string {
  return `The chat budget counts it at ${perMTok(price.inputPerMTok)} per million input tokens and ${perMTok(price.outputPerMTok)} per million output tokens.`;
}

/**
 * Sends a tiny request with the configured provider and model and says in plain words whether it
 * works, and if not, what to change (key, model name, quota, network). `now` is a millisecond clock.
 */
export async function checkModel(
  model: ChatModel,
  config: LlmConfig,
  now: () => number = () => performance.now(),
): Promise<ModelCheckReply> {
  const started = now();
  const base = { provider: model.provider, model: model.model };
  // A model whose cost cannot be counted is refused before any paid call (docs/decisions/0073).
  const price = model.provider === 'scripted' ? null : priceFor(config.model, mergePrices(config.prices));
  if (model.provider !== 'scripted' && price === null) {
    return { ...base, ok: false, problem: 'price', latencyMs: 0, message: noPriceMessage(config.model) };
  }
  let text = '';
  try {
    const info = await model.streamReply(
      {
        system: 'This is a connection test. Reply with the single word OK.',
        history: [{ role: 'user', content: 'Reply with OK.' }],
        condition: 'mmr',
        maxTokens: CHECK_MAX_TOKENS,
        thinking: false,
      },
      (delta) => {
        text += delta;
      },
    );
    const latencyMs = Math.round(now() - started);
    if (model.provider === 'scripted') {
      return {
        ...base,
        ok: true,
        problem: null,
        latencyMs,
        message:
          'The scripted offline model answered: no real AI model is connected (LLM_PROVIDER=scripted). Set LLM_PROVIDER and an API key before a live study.',
      };
    }
    const reply = text.trim()
      ? `It answered "${text.trim().slice(0, 40)}"`
      : `It answered without text within the test's ${CHECK_MAX_TOKENS}-token limit (stop reason ${info.stopReason ?? 'unknown'})`;
    return {
      ...base,
      model: info.model,
      ok: true,
      problem: null,
      latencyMs,
      message: `The model works: ${where(config).label} accepted the key and the model "${config.model}". ${reply} in ${latencyMs} ms.${price ? ` ${priced(price)}` : ''}`,
    };
  } catch (error) {
    return { ...base, ok: false, latencyMs: Math.round(now() - started), ...explainFailure(error, config) };
  }
}
