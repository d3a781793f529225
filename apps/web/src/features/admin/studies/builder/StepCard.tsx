import type { FlowStep } from '@studychat/contracts/web';
import type { DragEvent } from 'react';
import { useDraft } from '../editor/draft-context';
import { isUnder } from '../editor/FormSection';
import { SMALL_BUTTON } from '../editor/ListEditor';
import { StepContext } from './builder-context';
import { StepForm } from './StepForm';
import { STEP_TYPE_LABELS, stepControlId, stepName } from './step-labels';

/**
 * One step in the list: a header (drag handle, the disclosure that opens its form, Move up / Move down,
 * Duplicate, Remove) and, while open, its form. Drag and drop is the mouse's way; the buttons the keyboard's.
 */
export function StepCard({
  step,
  index,
  count,
  earlier,
  open,
  onToggle,
  onMove,
  onDuplicate,
  onRemove,
  drag,
}: {
  step: FlowStep;
  index: number;
  count: number;
  earlier: string[];
  open: boolean;
  onToggle: () => void;
  onMove: (to: number, direction: 'up' | 'down') => void;
  onDuplicate: () => void;
  onRemove: () => void;
  drag: { start: () => void; drop: () => void; end: () => void; over: boolean; setOver: (over: boolean) => void };
}) {
  const { issues, readOnly } = useDraft();
  const problems = issues.filter((issue) => isUnder(issue.path, `steps.${index}`)).length;
  const name = stepName(step, index);
  const panelId = `builder-step-${index}-panel`;
  const shown = step.conditions?.length ? step.conditions.join(', ') : 'everyone';
  const allowDrop = (e: DragEvent) => {
    e.preventDefault();
    if (!drag.over) drag.setOver(true);
  };
  return (
    <li
      className={`rounded-lg border bg-white ${drag.over ? 'border-brand-500 ring-2 ring-brand-500/40' : 'border-slate-200'}`}
      onDragOver={readOnly ? undefined : allowDrop}
      onDragLeave={() => drag.setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        drag.drop();
      }}
      data-step-id={step.id}
    >
      <div className="flex flex-wrap items-center gap-2 px-3 py-2">
        {!readOnly && (
          <span
            draggable
            aria-hidden="true"
            title="Drag to reorder"
            className="cursor-grab px-1 text-lg text-slate-500 select-none"
            data-testid={`drag-${index}`}
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(index));
              drag.start();
            }}
            onDragEnd={drag.end}
          >
            ⠿
          </span>
        )}
        <h3 className="min-w-0 flex-1">
          <button
            type="button"
            id={stepControlId(index, 'toggle')}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={onToggle}
            className="flex min-h-11 w-full items-center gap-2 rounded text-left font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
            <span>
              {index + 1}. {STEP_TYPE_LABELS[step.type]} <span className="font-mono font-normal">{step.id}</span>
              <span className="ml-2 text-sm font-normal text-slate-600">shown to {shown}</span>
            </span>
          </button>
        </h3>
        {problems > 0 && (
          <span className="rounded-full bg-red-100 px-2 text-sm font-medium text-red-800">
            {problems} problem{problems === 1 ? '' : 's'}
          </span>
        )}
        {!readOnly && (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              aria-label={`Move up ${name}`}
              id={stepControlId(index, 'up')}
              className={SMALL_BUTTON}
              disabled={index === 0}
              onClick={() => onMove(index - 1, 'up')}
            >
              Move up
            </button>
            <button
              type="button"
              aria-label={`Move down ${name}`}
              id={stepControlId(index, 'down')}
              className={SMALL_BUTTON}
              disabled={index === count - 1}
              onClick={() => onMove(index + 1, 'down')}
            >
              Move down
            </button>
            <button type="button" aria-label={`Duplicate ${name}`} className={SMALL_BUTTON} onClick={onDuplicate}>
              Duplicate
            </button>
            <button type="button" aria-label={`Remove ${name}`} className={SMALL_BUTTON} onClick={onRemove}>
              Remove
            </button>
          </div>
        )}
      </div>
      {open && (
        <div id={panelId} className="border-t border-slate-200 p-3">
          <StepContext.Provider value={{ index, earlier }}>
            <StepForm index={index} step={step} />
          </StepContext.Provider>
        </div>
      )}
    </li>
  );
}
