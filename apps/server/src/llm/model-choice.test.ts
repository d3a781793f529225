import { describe, expect, it } from 'vitest';
import { ProviderModel } from '../../test/chat.js';
import type { LlmConfig } from '../config.js';
import { createOtherChatModels } from './create-chat-model.js';
import { modelFor, providersAvailable } from './model-choice.js';

describe('which model a step calls', () => {
  const anthropic = new ProviderModel('anthropic', 'claude-sonnet-5-5');
  const openai = new ProviderModel('openai', 'gpt-5-mini');
  const scripted = new ProviderModel('scripted', 'scripted-offline');

  it("calls the deployment's model for a step naming no provider or its own", () => {
    expect(modelFor({ llm: anthropic, providers: { openai } }, undefined)).toBe(anthropic);
    expect(modelFor({ llm: anthropic, providers: { openai } }, 'anthropic')).toBe(anthropic);
  });

  it("calls another provider's model when its key is configured, and none when it is not", () => {
    expect(modelFor({ llm: anthropic, providers: { openai } }, 'openai')).toBe(openai);
    expect(modelFor({ llm: anthropic }, 'openai')).toBeNull();
    expect(providersAvailable({ llm: anthropic })).toEqual(['anthropic']);
    expect(providersAvailable({ llm: anthropic, providers: { openai } })).toEqual(['anthropic', 'openai']);
  });

  it('lets the offline model play every provider', () => {
    expect(modelFor({ llm: scripted }, 'openai')).toBe(scripted);
    expect(providersAvailable({ llm: scripted })).toEqual(['anthropic', 'openai', 'scripted']);
  });
});

describe("the other providers' models", () => {
  const base: LlmConfig = {
    provider: 'anthropic',
    model: 'claude-sonnet-5-5',
    anthropicApiKey: 'sk-ant',
    anthropicBaseUrl: undefined,
    openaiApiKey: undefined,
    openaiBaseUrl: undefined,
    maxTokens: 1024,
    thinkingBudget: 0,
    timeoutMs: 60_000,
    retryBudgetMs: 10_000,
    prices: {},
  };

  it('makes one per other provider whose key (or local server) is set, none for the offline model', () => {
    expect(Object.keys(createOtherChatModels(base))).toEqual([]);
    const both = createOtherChatModels({ ...base, openaiApiKey: 'sk-openai' });
    expect(both.openai).toMatchObject({ provider: 'openai', model: 'gpt-5-mini' });
    const fromOpenAi = createOtherChatModels({ ...base, provider: 'openai', openaiApiKey: 'sk-openai' });
    expect(Object.keys(fromOpenAi)).toEqual(['anthropic']);
    expect(fromOpenAi.anthropic).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(createOtherChatModels({ ...base, provider: 'scripted', openaiApiKey: 'sk-openai' })).toEqual({});
  });
});
