import { LIKERT_MAX, LIKERT_MIN, type StudyDefinition, type SurveyQuestion } from '@studychat/contracts';
import type { CsvColumn } from './csv.js';
import { intentValue, type ParticipantRecord } from './participant-record.js';

// participants.csv's pre-survey columns follow the questions of the study version the experiment pins
// (docs/decisions/0047): one column per question, in the version's order, named by its answer key (the MMR
// study: age, sex, political_leaning). A key that is also a fixed column's name gets `pre_` in front (again,
// until the name is free), so no column is ever written twice.

/** The column name of each pre-survey question key, clear of the fixed column names and of each other. */
export function preColumnNames(keys: readonly string[], fixed: ReadonlySet<string>): string[] {
  const taken = new Set([...fixed, ...keys]);
  return keys.map((key) => {
    if (!fixed.has(key)) return key;
    let name = `pre_${key}`;
    while (taken.has(name)) name = `pre_${name}`;
    taken.add(name);
    return name;
  });
}

const MID = (LIKERT_MIN + LIKERT_MAX) / 2;

function preColumn(question: SurveyQuestion, name: string): CsvColumn<ParticipantRecord> {
  const meaning = `Pre-survey answer to “${question.wording}”${name === question.key ? '' : ` (question '${question.key}' in surveys.csv)`}`;
  if (question.type === 'scale') {
    const labels = question.labels;
    return {
      name,
      type: 'integer',
      meaning: labels
        ? `${meaning} (${LIKERT_MIN} ${labels.min}, ${MID} ${labels.mid}, ${LIKERT_MAX} ${labels.max})`
        : meaning,
      allowed: `${LIKERT_MIN}-${LIKERT_MAX}`,
      minimum: LIKERT_MIN,
      maximum: LIKERT_MAX,
      value: (r) => intentValue(r.pre[question.key]),
    };
  }
  const values = (question.options ?? []).map((o) => o.value);
  return {
    name,
    type: 'text',
    meaning,
    allowed: values.join('; '),
    enum: values,
    value: (r) => r.pre[question.key],
  };
}

/** The pre-survey's columns of a study version; `fixed` are the names of participants.csv's other columns. */
export function preColumns(study: StudyDefinition, fixed: ReadonlySet<string>): CsvColumn<ParticipantRecord>[] {
  const names = preColumnNames(
    study.pre.questions.map((q) => q.key),
    fixed,
  );
  return study.pre.questions.map((question, index) => preColumn(question, names[index] ?? question.key));
}
