import {
  LIKERT_MAX,
  LIKERT_MIN,
  type StudyAnswers,
  type StudyDefinition,
  type SurveyQuestion,
} from '@studychat/contracts';
import { AppError } from '../../lib/errors.js';

// The answers a participant may give are the ones the experiment's study declares (docs/decisions/0033):
// its answer keys, its options, its 1-7 scales. The contract only bounds their size.

type AnsweredSurvey = 'entry' | 'baseline' | 'pre';

const SCALE = Array.from({ length: LIKERT_MAX - LIKERT_MIN + 1 }, (_, i) => String(LIKERT_MIN + i));

/** The questions of a survey as the study declares them. */
export function surveyQuestions(study: StudyDefinition, survey: AnsweredSurvey): SurveyQuestion[] {
  switch (survey) {
    case 'entry':
      return [
        {
          key: study.entry.key,
          wording: study.entry.scenario.at(-1) ?? study.entry.title,
          type: 'choice',
          options: [
            { value: study.entry.values.continue, label: study.entry.questionsLabel },
            { value: study.entry.values.exit, label: study.entry.confirmLabel },
          ],
          required: true,
        },
      ];
    case 'baseline':
      return [
        {
          key: study.baseline.key,
          wording: study.baseline.question,
          type: 'scale',
          labels: study.baseline.labels,
          required: true,
        },
      ];
    case 'pre':
      return study.pre.questions;
  }
}

/** The first problem of the answers against the questions, or null when they fit. */
export function answersProblem(questions: readonly SurveyQuestion[], answers: StudyAnswers): string | null {
  for (const key of Object.keys(answers)) {
    if (!questions.some((q) => q.key === key)) return `${key} is not a question of this survey`;
  }
  for (const question of questions) {
    // Own answers only: a key such as `constructor` must not find the object's prototype.
    const value = Object.hasOwn(answers, question.key) ? answers[question.key] : undefined;
    if (value === undefined) {
      if (question.required) return `${question.key} is required`;
      continue;
    }
    const allowed = question.type === 'scale' ? SCALE : (question.options ?? []).map((o) => o.value);
    if (!allowed.includes(value)) return `${question.key} must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`;
  }
  return null;
}

/** The post-survey's answer (the contract holds one 1-7 integer): under the study's post key, else 400. */
export function checkPostAnswer(study: StudyDefinition, answers: Readonly<Record<string, number>>): void {
  const key = Object.keys(answers)[0];
  if (key !== study.post.key)
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `The answers do not fit the study's questions: ${key} is not a question of this survey`,
    );
}

/** The answers, checked against the study's questions; 400 VALIDATION_FAILED names the first problem. */
export function checkAnswers(study: StudyDefinition, survey: AnsweredSurvey, answers: StudyAnswers): StudyAnswers {
  const problem = answersProblem(surveyQuestions(study, survey), answers);
  if (problem) throw new AppError(400, 'VALIDATION_FAILED', `The answers do not fit the study's questions: ${problem}`);
  return answers;
}
