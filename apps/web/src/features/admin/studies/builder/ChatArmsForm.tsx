import { useDraft } from '../editor/draft-context';
import { fieldId, getAt } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { NumberInput, TextInput } from '../editor/fields';
import { TextList } from '../editor/ListEditor';
import { useBuilder } from './builder-context';
import { newArm } from './defaults';
import { ModelFields } from './ModelFields';
import { PipedText } from './PipedText';

/** A chat step: its title and intro, and per condition an arm (or none: that condition skips the chat). */
export function ChatArmsForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const { draft, edit, readOnly, issuesAt } = useDraft();
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <PipedText path={[...at, 'intro']} label="Introduction" hiddenLabel={of} rows={3} />
      {flow.conditions.map((condition) => {
        const arm = [...at, 'arms', condition.id] as const;
        const has = getAt(draft, arm) !== undefined;
        const armOf = ` of condition ${condition.id} in step ${index + 1}`;
        const issues = issuesAt(arm);
        return (
          <fieldset
            key={condition.id}
            id={fieldId(arm)}
            tabIndex={-1}
            className="space-y-3 rounded-lg border border-slate-200 p-3"
          >
            <legend className="px-1 text-sm font-semibold text-slate-800">
              Condition {condition.label} ({condition.id})
            </legend>
            <FieldIssues id={`${fieldId(arm)}-issues`} issues={issues} />
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={has}
                disabled={readOnly}
                onChange={(e) => edit(arm, e.target.checked ? newArm() : undefined)}
              />
              This condition chats<span className="sr-only">{` in step ${index + 1} (${condition.id})`}</span>
            </label>
            {has ? (
              <>
                <ModelFields path={[...arm, 'model']} of={armOf} />
                <PipedText path={[...arm, 'systemPrompt']} label="System prompt" hiddenLabel={armOf} rows={6} />
                <PipedText
                  path={[...arm, 'openingInstruction']}
                  label="Opening instruction (optional)"
                  hiddenLabel={armOf}
                  rows={2}
                  optional
                />
                <TextInput path={[...arm, 'fallbackGreeting']} label="Fallback greeting" hiddenLabel={armOf} rows={2} />
                <div className="grid gap-3 sm:grid-cols-4">
                  <NumberInput path={[...arm, 'completion', 'rounds']} label="Rounds" hiddenLabel={armOf} />
                  <NumberInput path={[...arm, 'completion', 'points']} label="Points" hiddenLabel={armOf} />
                  <NumberInput path={[...arm, 'completion', 'minMinutes']} label="Least minutes" hiddenLabel={armOf} />
                  <NumberInput path={[...arm, 'completion', 'maxMinutes']} label="Most minutes" hiddenLabel={armOf} />
                </div>
                <TextInput
                  path={[...arm, 'scripted', 'opening']}
                  label="Scripted opening"
                  hiddenLabel={armOf}
                  rows={2}
                />
                <TextList path={[...arm, 'scripted', 'replies']} legend={`Scripted replies${armOf}`} itemName="reply" />
                <TextInput
                  path={[...arm, 'scripted', 'closing']}
                  label="Scripted closing"
                  hiddenLabel={armOf}
                  rows={2}
                />
              </>
            ) : (
              <p className="text-sm text-slate-600">This condition skips the chat.</p>
            )}
          </fieldset>
        );
      })}
    </>
  );
}
