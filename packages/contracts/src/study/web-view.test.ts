import { describe, expect, it } from 'vitest';
import { studyDefinition as serverStudy } from './mmr-study.js';
import { studyDefinition as webStudy } from './mmr-study.web.js';
import { mmrPreSurvey } from './mmr-study.survey.js';

describe('the browser view of the study', () => {
  it('has the same participant-facing content and fallback greeting as the server definition', () => {
    const { chat, pre, ...content } = serverStudy;
    const { chat: webChat, ...webContent } = webStudy;
    expect(webContent).toEqual(content);
    // The pre-study survey is the pre-survey page's own fallback (kept out of the shared bundle).
    expect(webStudy.pre).toBeUndefined();
    expect(mmrPreSurvey).toEqual(pre);
    expect(webChat).toEqual({ fallbackGreetings: chat.fallbackGreetings });
    expect(chat.fallbackGreetings.mmr).toMatch(/vaccine/);
    expect(chat.fallbackGreetings.control).toMatch(/car-seat/);
    expect(chat.fallbackGreetings.control).not.toMatch(/vaccin/);
  });

  it('carries no system prompt or scripted reply', () => {
    const shipped = JSON.stringify(webStudy);
    for (const condition of Object.values(serverStudy.chat.conditions)) {
      expect(condition.systemPrompt.length).toBeGreaterThan(0);
      expect(shipped).not.toContain(condition.systemPrompt);
      for (const reply of condition.scripted.replies) expect(shipped).not.toContain(reply);
    }
  });
});
