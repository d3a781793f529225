import type { AnswerValue } from './rules.js';
import type { FlowQuestion, QuestionsStep } from './types.js';

// What a valid answer to a flow question is, in one place: the browser says so under the question, the server
// refuses anything else (400 naming the question). Zod-free, so both ends run the same rule.

/** Characters as a participant counts them (code points), after trimming. */
export function textLength(text: string): number {
  return [...text.trim()].length;
}

/** A number answer as given: a number, or (the built-in study's scales) a numeric string. */
function numberOf(value: AnswerValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/** Why an answer does not fit its question, in the participant's words; null when it fits. */
export function answerProblem(question: FlowQuestion, value: AnswerValue | undefined): string | null {
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return question.required ? 'Please answer this question.' : null;
  switch (question.type) {
    case 'single':
      return typeof value === 'string' && question.options.some((o) => o.value === value)
        ? null
        : 'Please choose one of the options.';
    case 'multiple': {
      if (!Array.isArray(value) || !value.every((v) => question.options.some((o) => o.value === v)))
        return 'Please choose from the options.';
      if (new Set(value).size !== value.length) return 'Please choose each option once.';
      const min = question.minChoices ?? (question.required ? 1 : 0);
      const max = question.maxChoices ?? question.options.length;
      if (value.length < min) return `Please choose at least ${min}.`;
      if (value.length > max) return `Please choose at most ${max}.`;
      return null;
    }
    case 'likert': {
      const n = numberOf(value as AnswerValue);
      return n !== null && Number.isInteger(n) && n >= 1 && n <= question.points
        ? null
        : `Please choose a point from 1 to ${question.points}.`;
    }
    case 'slider': {
      const n = numberOf(value as AnswerValue);
      if (n === null || n < question.min || n > question.max)
        return `Please choose a value from ${question.min} to ${question.max}.`;
      const steps = (n - question.min) / question.step;
      return Math.abs(steps - Math.round(steps)) < 1e-9 ? null : `Please choose a value in steps of ${question.step}.`;
    }
    case 'number': {
      const n = numberOf(value as AnswerValue);
      if (n === null) return 'Please enter a number.';
      if (question.integer && !Number.isInteger(n)) return 'Please enter a whole number.';
      if (question.min !== undefined && n < question.min) return `Please enter a number of at least ${question.min}.`;
      if (question.max !== undefined && n > question.max) return `Please enter a number of at most ${question.max}.`;
      return null;
    }
    case 'text': {
      if (typeof value !== 'string') return 'Please write your answer.';
      const length = textLength(value);
      if (length > question.maxChars) return `Please write at most ${question.maxChars} characters (now ${length}).`;
      if (length < question.minChars) return `Please write at least ${question.minChars} characters (now ${length}).`;
      return null;
    }
  }
}

/** Every problem of a page's answers: per question, and any key the page does not ask. */
export function answersProblems(
  step: Pick<QuestionsStep, 'questions'>,
  answers: Readonly<Record<string, AnswerValue | undefined>>,
): { key: string; message: string }[] {
  const problems: { key: string; message: string }[] = [];
  for (const key of Object.keys(answers)) {
    if (!step.questions.some((q) => q.key === key)) problems.push({ key, message: 'This page does not ask this.' });
  }
  for (const question of step.questions) {
    const message = answerProblem(question, answers[question.key]);
    if (message) problems.push({ key: question.key, message });
  }
  return problems;
}

/** The answers as stored: numbers as numbers (a numeric string becomes one), text trimmed, nothing unanswered. */
export function normaliseAnswers(
  step: Pick<QuestionsStep, 'questions'>,
  answers: Readonly<Record<string, AnswerValue | undefined>>,
): Record<string, AnswerValue> {
  const stored: Record<string, AnswerValue> = {};
  for (const q of step.questions) {
    const value = answers[q.key];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    if (q.type === 'likert' || q.type === 'slider' || q.type === 'number') stored[q.key] = numberOf(value) ?? value;
    else if (q.type === 'text' && typeof value === 'string') stored[q.key] = value.trim();
    else stored[q.key] = value;
  }
  return stored;
}
