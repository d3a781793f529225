import { questionsByKey, type FlowStep } from '@studychat/contracts/web';
import { useDraft } from '../editor/draft-context';
import { NumberInput, TextInput } from '../editor/fields';
import { ListEditor } from '../editor/ListEditor';
import { useBuilder, useStep } from './builder-context';
import { formatList, ParsedInput, parseList } from './ParsedInput';
import { SelectField } from './SelectField';

/**
 * A randomise step: each condition's weight in a block, and optionally strata of an earlier answer in bins the
 * researcher names (a choice's values, or a range of a scale, slider or number).
 */
export function RandomiseForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const { earlier } = useStep();
  const { edit, readOnly } = useDraft();
  const step = flow.steps[index] as Extract<FlowStep, { type: 'randomise' }>;
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  const questions = questionsByKey(flow);
  const stratifiable = earlier.filter((key) => {
    const q = questions.get(key);
    return q !== undefined && q.type !== 'text' && q.type !== 'multiple';
  });
  const strata = step.strata;
  const byValue = strata ? questions.get(strata.key)?.type === 'single' : false;
  const newBin = (n: number) =>
    byValue ? { label: `Group ${n}`, values: [] } : { label: `Group ${n}`, min: 0, max: 0 };
  return (
    <>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Weights{of}</legend>
        <p className="text-sm text-slate-600">
          Whole numbers: a block holds each condition as many times as its weight.
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {flow.conditions.map((c) => (
            <NumberInput
              key={c.id}
              path={[...at, 'weights', c.id]}
              label={`Weight of ${c.label} (${c.id})`}
              hiddenLabel={of}
            />
          ))}
        </div>
      </fieldset>
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={strata !== undefined}
          disabled={readOnly}
          onChange={(e) =>
            edit(
              [...at, 'strata'],
              e.target.checked
                ? { key: stratifiable.at(-1) ?? '', bins: [{ label: 'Group 1', min: 0, max: 0 }] }
                : undefined,
            )
          }
        />
        Stratify by an earlier answer<span className="sr-only">{of}</span>
      </label>
      {strata && (
        <>
          <SelectField
            path={[...at, 'strata', 'key']}
            label="Answer to stratify by"
            hiddenLabel={of}
            choices={stratifiable.map((key) => ({ value: key, label: key }))}
            onPick={(key) =>
              edit([...at, 'strata'], {
                key,
                bins: [
                  questions.get(key)?.type === 'single'
                    ? { label: 'Group 1', values: [] }
                    : { label: 'Group 1', min: 0, max: 0 },
                ],
              })
            }
          />
          <ListEditor
            path={[...at, 'strata', 'bins']}
            legend={`Strata${of}`}
            itemName="stratum"
            itemSuffix={of}
            newItem={(list) => newBin(list.length + 1)}
          >
            {(b) => (
              <div className="grid gap-3 sm:grid-cols-3">
                <TextInput
                  path={[...at, 'strata', 'bins', b, 'label']}
                  label={`Name of stratum ${b + 1}`}
                  hiddenLabel={of}
                />
                {byValue ? (
                  <ParsedInput
                    path={[...at, 'strata', 'bins', b, 'values']}
                    label={`Values in stratum ${b + 1} (separated by commas)`}
                    hiddenLabel={of}
                    format={formatList}
                    parse={(text) => parseList(text, false)}
                  />
                ) : (
                  <>
                    <NumberInput
                      path={[...at, 'strata', 'bins', b, 'min']}
                      label={`Lowest in stratum ${b + 1}`}
                      hiddenLabel={of}
                    />
                    <NumberInput
                      path={[...at, 'strata', 'bins', b, 'max']}
                      label={`Highest in stratum ${b + 1}`}
                      hiddenLabel={of}
                    />
                  </>
                )}
              </div>
            )}
          </ListEditor>
        </>
      )}
    </>
  );
}
