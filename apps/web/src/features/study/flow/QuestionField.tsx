import { textLength, type AnswerValue, type FlowQuestion } from '@studychat/contracts/web';
import { useId, type ReactNode } from 'react';
import { LikertScale } from '../../../components/LikertScale';
import { ChoiceGroup } from '../ChoiceGroup';

export interface QuestionFieldProps {
  question: FlowQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue | undefined) => void;
  /** Shown under the question once the participant tried to go on (or the server refused the answer). */
  problem: string | null;
}

const legendClass = 'text-lg font-semibold text-slate-900';

function Required({ on }: { on: boolean }) {
  if (!on) return null;
  return (
    <>
      <span aria-hidden="true" className="text-red-700">
        {' '}
        *
      </span>
      <span className="sr-only"> (required)</span>
    </>
  );
}

function Problem({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} className="mt-2 text-sm font-medium text-red-700">
      {text}
    </p>
  );
}

/** One question of a flow's questions step, by its type; every input is a native control, so keyboards work. */
export function QuestionField({ question, value, onChange, problem }: QuestionFieldProps) {
  const id = useId();
  const problemId = `${id}-problem`;
  const helpId = `${id}-help`;
  const describedBy = [question.help ? helpId : '', problem ? problemId : ''].filter(Boolean).join(' ') || undefined;
  const help = question.help ? (
    <p id={helpId} className="mt-1 text-sm text-slate-600">
      {question.help}
    </p>
  ) : null;
  let field: ReactNode;
  switch (question.type) {
    case 'single':
      field = (
        <ChoiceGroup
          legend={question.text}
          name={question.key}
          options={question.options}
          value={typeof value === 'string' ? value : null}
          onChange={onChange}
          columns={question.options.length > 4 ? 2 : 1}
          required={question.required}
        />
      );
      break;
    case 'likert':
      field = (
        <LikertScale
          legend={question.text}
          name={question.key}
          value={typeof value === 'number' ? value : null}
          onChange={onChange}
          min={1}
          max={question.points}
          labels={question.labels}
          required={question.required}
          describedBy={describedBy}
        />
      );
      break;
    case 'multiple':
      field = <Checkboxes question={question} value={value} onChange={onChange} describedBy={describedBy} />;
      break;
    case 'slider':
      field = <Slider question={question} value={value} onChange={onChange} id={id} describedBy={describedBy} />;
      break;
    case 'number':
      field = (
        <div>
          <label htmlFor={id} className={legendClass}>
            {question.text}
            <Required on={question.required} />
          </label>
          <input
            id={id}
            type="number"
            inputMode={question.integer ? 'numeric' : 'decimal'}
            step={question.integer ? 1 : 'any'}
            min={question.min}
            max={question.max}
            value={value === undefined ? '' : String(value)}
            onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
            aria-describedby={describedBy}
            aria-invalid={problem ? true : undefined}
            className="mt-3 block w-40 rounded-lg border-2 border-slate-300 px-3 py-2 text-lg focus:border-brand-600 focus:outline-none"
          />
        </div>
      );
      break;
    case 'text': {
      const text = typeof value === 'string' ? value : '';
      const length = textLength(text);
      const Input = question.multiline ? 'textarea' : 'input';
      field = (
        <div>
          <label htmlFor={id} className={legendClass}>
            {question.text}
            <Required on={question.required} />
          </label>
          <Input
            id={id}
            value={text}
            onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
            aria-describedby={[describedBy, `${id}-count`].filter(Boolean).join(' ')}
            aria-invalid={problem ? true : undefined}
            {...(question.multiline ? { rows: 5 } : { type: 'text' })}
            className="mt-3 block w-full rounded-lg border-2 border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:outline-none"
          />
          <p
            id={`${id}-count`}
            className={`mt-1 text-sm ${length > question.maxChars ? 'font-semibold text-red-700' : 'text-slate-600'}`}
          >
            {length} / {question.maxChars} characters
            {question.minChars > 0 && ` (at least ${question.minChars})`}
          </p>
        </div>
      );
      break;
    }
  }
  return (
    <div>
      {field}
      {help}
      <Problem id={problemId} text={problem} />
    </div>
  );
}

function Checkboxes({
  question,
  value,
  onChange,
  describedBy,
}: {
  question: Extract<FlowQuestion, { type: 'multiple' }>;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue | undefined) => void;
  describedBy: string | undefined;
}) {
  const id = useId();
  const chosen = Array.isArray(value) ? value : [];
  const toggle = (option: string) => {
    const next = chosen.includes(option) ? chosen.filter((v) => v !== option) : [...chosen, option];
    // In the options' order, so the stored answer does not depend on the order of clicks.
    const ordered = question.options.map((o) => o.value).filter((v) => next.includes(v));
    onChange(ordered.length > 0 ? ordered : undefined);
  };
  return (
    <fieldset className="min-w-0" aria-describedby={describedBy}>
      <legend className={legendClass}>
        {question.text}
        <Required on={question.required} />
      </legend>
      <p className="mt-1 text-sm text-slate-600">
        Choose all that apply
        {question.maxChoices !== undefined ? ` (at most ${question.maxChoices})` : ''}.
      </p>
      <div className="mt-3 grid gap-2">
        {question.options.map((option) => (
          <div key={option.value}>
            <input
              id={`${id}-${option.value}`}
              type="checkbox"
              value={option.value}
              checked={chosen.includes(option.value)}
              onChange={() => toggle(option.value)}
              className="peer sr-only"
            />
            <label
              htmlFor={`${id}-${option.value}`}
              className="flex min-h-12 cursor-pointer items-center rounded-lg border-2 border-slate-300 bg-white px-3 py-2 text-base font-medium text-slate-800 transition-colors peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 hover:border-brand-500"
            >
              <span
                aria-hidden="true"
                className={`mr-3 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded border-2 ${chosen.includes(option.value) ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-400'}`}
              >
                {chosen.includes(option.value) ? '✓' : ''}
              </span>
              {option.label}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** Keys that move a range input: pressing one answers, even where the thumb already was. */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

function Slider({
  question,
  value,
  onChange,
  id,
  describedBy,
}: {
  question: Extract<FlowQuestion, { type: 'slider' }>;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue | undefined) => void;
  id: string;
  describedBy: string | undefined;
}) {
  const set = typeof value === 'number';
  const middle = question.min + Math.round((question.max - question.min) / question.step / 2) * question.step;
  return (
    <div>
      <label htmlFor={id} className={legendClass}>
        {question.text}
        <Required on={question.required} />
      </label>
      <p className="mt-1 text-sm text-slate-600" aria-live="polite">
        {set ? `Your answer: ${value}` : 'Move the slider to answer (or use the arrow keys).'}
      </p>
      <input
        id={id}
        type="range"
        min={question.min}
        max={question.max}
        step={question.step}
        value={set ? value : middle}
        onChange={(e) => onChange(Number(e.target.value))}
        // A tap on the thumb where it already sits still answers.
        onPointerUp={(e) => onChange(Number(e.currentTarget.value))}
        onKeyUp={(e) => {
          if (SLIDER_KEYS.has(e.key)) onChange(Number(e.currentTarget.value));
        }}
        aria-describedby={describedBy}
        aria-valuetext={set ? String(value) : 'not answered'}
        className={`mt-4 block w-full accent-brand-600 ${set ? '' : 'opacity-60'}`}
      />
      <div className="mt-1 flex justify-between gap-4 text-sm text-slate-700">
        <span>
          {question.min}: {question.anchors.min}
        </span>
        {question.anchors.mid && <span className="text-center">{question.anchors.mid}</span>}
        <span className="text-right">
          {question.max}: {question.anchors.max}
        </span>
      </div>
    </div>
  );
}
