import { studyDefinition } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatTurn } from './chat-model.js';
import { createStudyScriptedModel } from './create-chat-model.js';

const model = createStudyScriptedModel();
const scripts = studyDefinition.chat.conditions;

async function reply(condition: ChatRequest['condition'], history: ChatTurn[]) {
  const deltas: string[] = [];
  const info = await model.streamReply({ system: 'ignored', history, condition }, (d) => deltas.push(d));
  return { text: deltas.join(''), deltas, info };
}

describe('scripted model', () => {
  it('opens with the condition’s opening, streamed word by word', async () => {
    const mmr = await reply('mmr', []);
    expect(mmr.text).toBe(scripts.mmr.scripted.opening);
    expect(mmr.deltas.length).toBe(scripts.mmr.scripted.opening.split(/\s+/).length);
    const control = await reply('control', []);
    expect(control.text).toBe(scripts.control.scripted.opening);
    expect(control.text).not.toBe(mmr.text);
  });

  it('answers from its own condition’s content, choosing the reply that fits the question', async () => {
    const history: ChatTurn[] = [
      { role: 'assistant', content: scripts.mmr.scripted.opening },
      { role: 'user', content: 'How dangerous is measles, could my child need hospital care?' },
    ];
    const { text } = await reply('mmr', history);
    expect(scripts.mmr.scripted.replies).toContain(text);
    expect(text).toMatch(/20,000/);
    const control = await reply('control', [{ role: 'user', content: 'How long should she stay rear-facing?' }]);
    expect(scripts.control.scripted.replies).toContain(control.text);
  });

  it('is deterministic, never repeats a reply before the closing, and says it is not a real model', async () => {
    const history: ChatTurn[] = [{ role: 'assistant', content: scripts.mmr.scripted.opening }];
    const said: string[] = [];
    for (let i = 0; i <= scripts.mmr.scripted.replies.length; i += 1) {
      history.push({ role: 'user', content: `question ${i}` });
      const first = await reply('mmr', history);
      const again = await reply('mmr', history);
      expect(again.text).toBe(first.text);
      said.push(first.text);
      history.push({ role: 'assistant', content: first.text });
    }
    expect(new Set(said).size).toBe(said.length);
    expect(said.at(-1)).toBe(scripts.mmr.scripted.closing);
    const { info } = await reply('mmr', history);
    expect(info.model).toBe('scripted-offline');
    expect(info.thinking[0]).toMatchObject({ type: 'thinking', thinking: expect.stringMatching(/no real AI/) });
  });
});
