import type { FlowStep } from '@studychat/contracts/web';
import { useEffect, useState } from 'react';
import { useDraft } from '../editor/draft-context';
import { fieldId } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { SMALL_BUTTON } from '../editor/ListEditor';
import { useBuilder, useStep } from './builder-context';
import { ComparisonFields, newComparison } from './ComparisonFields';
import { firstComparison, groupMode, RuleGroupForm } from './RuleGroupForm';
import { SelectField } from './SelectField';

/**
 * A screen step as a sentence: "If [answer] [is / is not / ...] [value], end with pathway [pathway]", or, combined,
 * "If [all / any] of these hold: ...". "Combine with another comparison" turns one comparison into a group of two
 * (all); "Use one comparison" keeps the group's first comparison.
 */
export function ScreenForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const { earlier } = useStep();
  const { edit, issuesAt, readOnly } = useDraft();
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (focusNext === null) return;
    document.getElementById(focusNext)?.focus();
    setFocusNext(null);
  }, [focusNext]);
  const step = flow.steps[index] as Extract<FlowStep, { type: 'screen' }>;
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  const when = [...at, 'when'] as const;
  const pathway = (
    <SelectField
      path={[...at, 'pathway']}
      label="end with pathway"
      hiddenLabel={of}
      choices={flow.pathways.map((p) => ({ value: p.key, label: `${p.label} (${p.key})` }))}
    />
  );

  if (groupMode(step.when)) {
    return (
      <>
        <RuleGroupForm path={when} step={index + 1} />
        {pathway}
        {!readOnly && (
          <button
            type="button"
            className={SMALL_BUTTON}
            aria-label={`Use one comparison${of}`}
            onClick={() => {
              edit(when, firstComparison(step.when) ?? newComparison(earlier));
              setFocusNext(fieldId([...when, 'key']));
            }}
          >
            Use one comparison
          </button>
        )}
      </>
    );
  }

  return (
    <fieldset id={fieldId(when)} tabIndex={-1} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Rule{of}</legend>
      <FieldIssues id={`${fieldId(when)}-issues`} issues={issuesAt(when)} />
      <ComparisonFields path={when} of={of} lead={<span className="pt-3 font-semibold">If</span>} tail={pathway} />
      {!readOnly && (
        <button
          type="button"
          className={SMALL_BUTTON}
          aria-label={`Combine with another comparison${of}`}
          onClick={() => {
            edit(when, { all: [step.when, newComparison(earlier)] });
            setFocusNext(fieldId([...when, 'all', 1, 'key']));
          }}
        >
          Combine with another comparison
        </button>
      )}
    </fieldset>
  );
}
