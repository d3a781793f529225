import { studyDefinition, type SurveyQuestion } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { answersProblem, checkAnswers, surveyQuestions } from './survey-questions.js';

const questions: SurveyQuestion[] = [
  {
    key: 'kids',
    wording: 'How many?',
    type: 'choice',
    options: [
      { value: '1', label: 'One' },
      { value: '2', label: 'Two' },
    ],
    required: true,
  },
  { key: 'worry', wording: 'Worry?', type: 'scale', labels: { min: 'No', mid: 'Some', max: 'Yes' }, required: false },
];

describe("answers against the study's questions", () => {
  it('accepts declared options and 1-7 scale points, and leaves out optional questions', () => {
    expect(answersProblem(questions, { kids: '2', worry: '7' })).toBeNull();
    expect(answersProblem(questions, { kids: '1' })).toBeNull();
  });

  it('names a missing required answer, an undeclared key, an unknown option and a point off the scale', () => {
    expect(answersProblem(questions, { worry: '3' })).toBe('kids is required');
    expect(answersProblem(questions, { kids: '1', extra: 'x' })).toBe('extra is not a question of this survey');
    expect(answersProblem(questions, { kids: '3' })).toBe('kids must be one of "1", "2"');
    expect(answersProblem(questions, { kids: '1', worry: '8' })).toMatch(/^worry must be one of "1", .* "7"$/);
  });

  it('reads only the answers given: a question keyed like an object property is missing when not answered', () => {
    const odd: SurveyQuestion[] = [
      {
        key: 'constructor',
        wording: 'Built?',
        type: 'scale',
        labels: { min: 'No', mid: 'Some', max: 'Yes' },
        required: false,
      },
      { key: 'tostring', wording: 'Said?', type: 'choice', options: [{ value: 'y', label: 'Yes' }], required: true },
    ];
    expect(answersProblem(odd, { tostring: 'y' })).toBeNull();
    expect(answersProblem(odd, {})).toBe('tostring is required');
    expect(answersProblem(odd, { constructor: '4', tostring: 'y' })).toBeNull();
  });

  it("reads the MMR study's entry, baseline and pre-survey keys from its definition", () => {
    expect(surveyQuestions(studyDefinition, 'entry')[0]?.options?.map((o) => o.value)).toEqual([
      'questions',
      'confirm',
    ]);
    expect(surveyQuestions(studyDefinition, 'baseline')[0]?.key).toBe('vaccination_intention');
    expect(surveyQuestions(studyDefinition, 'pre').map((q) => q.key)).toEqual(['age', 'sex', 'political_leaning']);
    expect(() => checkAnswers(studyDefinition, 'entry', { choice: 'maybe' })).toThrow(/choice must be one of/);
    expect(checkAnswers(studyDefinition, 'entry', { choice: 'confirm' })).toEqual({ choice: 'confirm' });
  });
});
