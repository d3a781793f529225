import { describe, expect, it } from 'vitest';
import { modelSettings } from './model-settings.js';

describe("a study condition's chat model settings", () => {
  it('leaves out what the condition does not set (the deployment configuration applies)', () => {
    expect(modelSettings(undefined, 2048)).toEqual({ maxTokens: 2048 });
    expect(modelSettings({}, 900)).toEqual({ maxTokens: 900 });
  });

  it('passes model, temperature and thinking budget, and keeps reply tokens within the limit', () => {
    expect(
      modelSettings({ model: 'claude-haiku-4-5', temperature: 0, thinkingBudget: 0, replyTokens: 300 }, 2048),
    ).toEqual({ model: 'claude-haiku-4-5', temperature: 0, thinkingBudget: 0, maxTokens: 300 });
    expect(modelSettings({ replyTokens: 4000 }, 1000)).toEqual({ maxTokens: 1000 });
  });
});
