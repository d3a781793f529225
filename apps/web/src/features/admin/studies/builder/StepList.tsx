import type { FlowStepType } from '@studychat/contracts/web';
import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '../../../../components/Button';
import { Modal } from '../../../../components/Modal';
import { useDraft } from '../editor/draft-context';
import { fieldId } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { INPUT } from '../editor/fields';
import { focusPath } from '../editor/focus-path';
import { useBuilder } from './builder-context';
import { addStep, duplicateStep, earlierKeys, moveStep, removeStep } from './flow-edits';
import { StepCard } from './StepCard';
import { movedIndex, remapIndices, STEP_TYPE_LABELS, stepControlId, stepName } from './step-labels';

const STEP_PATH = /^steps\.(\d+)(\.|$)/;

/** The flow's steps in order: add a step of any type, open one to edit it, reorder, duplicate, remove. */
export function StepList() {
  const { flow, change } = useBuilder();
  const { issuesAt, readOnly, focusRequest, clearFocusRequest } = useDraft();
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [newType, setNewType] = useState<FlowStepType>('questions');
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const typeId = useId();
  const listId = fieldId(['steps']);
  const steps = flow.steps;
  const earlier = useMemo(() => steps.map((_, i) => earlierKeys(flow, i)), [flow, steps]);

  // An issue chosen in the summary: open its step, then focus its field.
  const wanted = focusRequest === null ? null : STEP_PATH.exec(focusRequest);
  const wantedIndex = wanted ? Number(wanted[1]) : null;
  if (wantedIndex !== null && wantedIndex < steps.length && !open.has(wantedIndex)) {
    setOpen(new Set([...open, wantedIndex]));
  }
  useEffect(() => {
    if (focusRequest === 'steps') {
      document.getElementById(listId)?.focus();
      clearFocusRequest();
    } else if (focusRequest !== null && wantedIndex !== null && open.has(wantedIndex)) {
      focusPath(focusRequest);
      clearFocusRequest();
    }
  }, [focusRequest, wantedIndex, open, listId, clearFocusRequest]);

  // Focus follows the step a button moved, added or removed (the list re-renders first).
  // After the remove dialog closes, its own focus return comes first: focus the step after it.
  useEffect(() => {
    if (focusNext === null) return;
    const target = focusNext;
    setFocusNext(null);
    document.getElementById(target)?.focus();
    window.setTimeout(() => document.getElementById(target)?.focus(), 0);
  }, [focusNext]);

  const move = (from: number, to: number, direction?: 'up' | 'down') => {
    if (to < 0 || to >= steps.length || from === to) return;
    change((f) => moveStep(f, from, to));
    setOpen((o) => remapIndices(o, (i) => movedIndex(i, from, to)));
    if (direction) {
      const edge = (direction === 'up' && to === 0) || (direction === 'down' && to === steps.length - 1);
      setFocusNext(stepControlId(to, edge ? (direction === 'up' ? 'down' : 'up') : direction));
    }
  };

  const insertedAt = (index: number) => {
    setOpen((o) => new Set([...remapIndices(o, (i) => (i >= index ? i + 1 : i)), index]));
    setFocusNext(stepControlId(index, 'toggle'));
  };

  const add = () => {
    const result = addStep(flow, newType);
    change(() => result.flow);
    insertedAt(result.index);
  };

  const confirmRemove = () => {
    if (removing === null) return;
    const index = removing;
    change((f) => removeStep(f, index));
    setOpen((o) => remapIndices(o, (i) => (i === index ? null : i > index ? i - 1 : i)));
    setRemoving(null);
    const left = steps.length - 1;
    setFocusNext(left === 0 ? typeId : stepControlId(Math.min(index, left - 1), 'toggle'));
  };

  const issues = issuesAt(['steps']);
  return (
    <section aria-labelledby={`${listId}-title`} className="space-y-3">
      <h2 id={`${listId}-title`} className="text-lg font-semibold text-slate-900">
        Steps
      </h2>
      <p className="text-sm text-slate-600">
        Participants walk the steps in order; a step shown to some conditions is skipped by the others. Open a step to
        edit it; drag a step by its handle, or use Move up and Move down.
      </p>
      <div id={listId} tabIndex={-1} aria-describedby={issues.length > 0 ? `${listId}-issues` : undefined}>
        <FieldIssues id={`${listId}-issues`} issues={issues} />
      </div>
      <ol className="space-y-2" aria-label="Steps of the study">
        {steps.map((step, index) => (
          <StepCard
            key={index}
            step={step}
            index={index}
            count={steps.length}
            earlier={earlier[index] ?? []}
            open={open.has(index)}
            onToggle={() =>
              setOpen((o) => {
                const next = new Set(o);
                if (next.has(index)) next.delete(index);
                else next.add(index);
                return next;
              })
            }
            onMove={(to, direction) => move(index, to, direction)}
            onDuplicate={() => {
              change((f) => duplicateStep(f, index));
              insertedAt(index + 1);
            }}
            onRemove={() => setRemoving(index)}
            drag={{
              start: () => setDragging(index),
              drop: () => {
                if (dragging !== null) move(dragging, index);
                setDragging(null);
                setOver(null);
              },
              end: () => {
                setDragging(null);
                setOver(null);
              },
              over: over === index && dragging !== null && dragging !== index,
              setOver: (is) => setOver(is ? index : null),
            }}
          />
        ))}
      </ol>
      {!readOnly && (
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={typeId} className="block text-sm font-medium text-slate-800">
              Type of the new step
            </label>
            <select
              id={typeId}
              value={newType}
              className={`${INPUT} border-slate-300`}
              onChange={(e) => setNewType(e.target.value as FlowStepType)}
            >
              {Object.entries(STEP_TYPE_LABELS).map(([type, label]) => (
                <option key={type} value={type}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={add}>
            Add step
          </Button>
        </div>
      )}
      <Modal
        open={removing !== null}
        onOpenChange={(is) => !is && setRemoving(null)}
        title={removing !== null && steps[removing] ? `Remove ${stepName(steps[removing], removing)}?` : 'Remove step?'}
        description="The step and everything in it leave the draft; nothing is saved until you save."
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirmRemove}>
            Remove step
          </Button>
        </div>
      </Modal>
    </section>
  );
}
