import { CONDITION_ID_PATTERN } from '@studychat/contracts/web';
import type { ReactNode } from 'react';
import { ConditionsForm } from './ConditionsForm';
import { useDraft } from './draft-context';
import { ChatForm } from './ChatForm';
import { ConsentForm } from './ConsentForm';
import { EntryForm } from './EntryForm';
import { FormSection, isUnder } from './FormSection';
import { GeneralForm } from './GeneralForm';
import { IntentionForm } from './IntentionForm';
import { PagesForm } from './PagesForm';
import { PathwaysForm } from './PathwaysForm';
import { PreSurveyForm } from './PreSurveyForm';
import { SectionsForm } from './SectionsForm';

type Part = { title: string; prefixes: string[]; form: ReactNode };

/** The declared condition ids of a draft; a draft without a list is read as the MMR study's two (0061). */
export function draftConditions(draft: Record<string, unknown>): string[] {
  const list = draft.conditionList;
  if (!Array.isArray(list)) return ['mmr', 'control'];
  return list
    .map((c: unknown) => (typeof c === 'object' && c !== null ? (c as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && CONDITION_ID_PATTERN.test(id));
}

/** The parts of the definition that have forms, and the paths each one covers: per condition, the declared ones. */
const partsFor = (conditions: readonly string[]): Part[] => [
  { title: 'Title', prefixes: ['title', 'id'], form: <GeneralForm /> },
  { title: 'Conditions', prefixes: ['conditionList'], form: <ConditionsForm /> },
  { title: 'Consent', prefixes: ['consent'], form: <ConsentForm /> },
  { title: 'Entry choice', prefixes: ['entry'], form: <EntryForm /> },
  { title: 'Baseline and post questions', prefixes: ['baseline', 'post'], form: <IntentionForm /> },
  { title: 'Pre-study survey', prefixes: ['pre'], form: <PreSurveyForm /> },
  ...conditions.map((condition) => ({
    title: `Sections: ${condition} condition`,
    prefixes: [`conditions.${condition}`],
    form: <SectionsForm condition={condition} />,
  })),
  { title: 'Static-intro and completion pages', prefixes: ['pages'], form: <PagesForm /> },
  { title: 'Pathways (for researchers)', prefixes: ['pathways'], form: <PathwaysForm /> },
  ...conditions.map((condition) => ({
    title: `Chat: ${condition} condition`,
    prefixes: [`chat.conditions.${condition}`, `chat.fallbackGreetings.${condition}`, `chat.completion.${condition}`],
    form: <ChatForm condition={condition} />,
  })),
];

/** Whether a path lies in a part that has forms (otherwise the JSON view is where to fix it). */
export const hasForm = (path: string, conditions: readonly string[]) =>
  partsFor(conditions).some((part) => part.prefixes.some((prefix) => isUnder(path, prefix)));

/**
 * The definition as forms, one disclosure per part. What has no form here (a part the schema gained before a form
 * named it) is edited in the JSON view, which always holds the whole definition.
 */
export function StudyForms() {
  const { draft } = useDraft();
  const conditions = draftConditions(draft);
  return (
    <div className="space-y-2">
      {partsFor(conditions).map((part) => (
        <FormSection key={part.title} title={part.title} prefixes={part.prefixes}>
          {part.form}
        </FormSection>
      ))}
    </div>
  );
}
