import type { ReactNode } from 'react';
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

/** The parts of the definition that have forms, and the paths each one covers. */
const PARTS: { title: string; prefixes: string[]; form: ReactNode }[] = [
  { title: 'Title', prefixes: ['title', 'id'], form: <GeneralForm /> },
  { title: 'Consent', prefixes: ['consent'], form: <ConsentForm /> },
  { title: 'Entry choice', prefixes: ['entry'], form: <EntryForm /> },
  { title: 'Baseline and post questions', prefixes: ['baseline', 'post'], form: <IntentionForm /> },
  { title: 'Pre-study survey', prefixes: ['pre'], form: <PreSurveyForm /> },
  ...(['mmr', 'control'] as const).map((condition) => ({
    title: `Sections: ${condition} condition`,
    prefixes: [`conditions.${condition}`],
    form: <SectionsForm condition={condition} />,
  })),
  { title: 'Static-intro and completion pages', prefixes: ['pages'], form: <PagesForm /> },
  { title: 'Pathways (for researchers)', prefixes: ['pathways'], form: <PathwaysForm /> },
  ...(['mmr', 'control'] as const).map((condition) => ({
    title: `Chat: ${condition} condition`,
    prefixes: [`chat.conditions.${condition}`, `chat.fallbackGreetings.${condition}`, `chat.completion.${condition}`],
    form: <ChatForm condition={condition} />,
  })),
];

/** Whether a path lies in a part that has forms (otherwise the JSON view is where to fix it). */
export const hasForm = (path: string) => PARTS.some((part) => part.prefixes.some((prefix) => isUnder(path, prefix)));

/**
 * The definition as forms, one disclosure per part. What has no form here (a part the schema gained before a form
 * named it) is edited in the JSON view, which always holds the whole definition.
 */
export function StudyForms() {
  return (
    <div className="space-y-2">
      {PARTS.map((part) => (
        <FormSection key={part.title} title={part.title} prefixes={part.prefixes}>
          {part.form}
        </FormSection>
      ))}
    </div>
  );
}
