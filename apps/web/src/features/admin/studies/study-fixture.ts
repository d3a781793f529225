import { mmrPreSurvey, studyDefinition, type StudyDefinition, type StudyVersion } from '@studychat/contracts/web';

export const VERSION_ID = '11111111-1111-4111-8111-111111111111';

/** A whole definition for the editor's tests: the built-in study's texts, with short chat texts of its own. */
export function fixtureDefinition(): StudyDefinition {
  const chat = (topic: string) => ({
    systemPrompt: `You answer questions about ${topic}.`,
    scripted: { opening: `Hi, ask me about ${topic}.`, replies: ['A reply.'], closing: 'Bye.' },
  });
  return structuredClone({
    ...studyDefinition,
    pre: mmrPreSurvey,
    chat: { ...studyDefinition.chat, conditions: { mmr: chat('the MMR vaccine'), control: chat('car seats') } },
  });
}

/** A draft version (no participant yet) holding the fixture definition. */
export function draftVersion(over: Partial<StudyVersion> = {}): StudyVersion {
  const definition = fixtureDefinition();
  return {
    id: VERSION_ID,
    label: 'Draft A',
    study_id: definition.id,
    title: definition.title,
    parent_id: null,
    is_default: false,
    experiments: 0,
    locked: false,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    definition,
    ...over,
  };
}
