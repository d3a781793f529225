import type { FlowStep, FlowStepType } from '@studychat/contracts/web';

export const STEP_TYPE_LABELS: Record<FlowStepType, string> = {
  page: 'Page',
  questions: 'Questions',
  reading: 'Timed reading',
  chat: 'Chat',
  ai_text: 'AI text',
  randomise: 'Randomise',
  screen: 'Screen',
  end: 'End',
};

/** "Step 3 (beliefs)": how buttons and dialogs name a step. */
export const stepName = (step: FlowStep, index: number): string => `step ${index + 1} (${step.id})`;

/** The DOM ids of a step's header controls (focus follows a moved, added or removed step). */
export const stepControlId = (index: number, control: 'up' | 'down' | 'toggle'): string =>
  `builder-step-${index}-${control}`;

/** Where each open step goes when the list changes: old index to new (null: gone). */
export function remapIndices(open: ReadonlySet<number>, to: (index: number) => number | null): Set<number> {
  const next = new Set<number>();
  for (const i of open) {
    const j = to(i);
    if (j !== null) next.add(j);
  }
  return next;
}

/** An index after the item at `from` moved to `to`. */
export function movedIndex(i: number, from: number, to: number): number {
  if (i === from) return to;
  if (from < to && i > from && i <= to) return i - 1;
  if (from > to && i >= to && i < from) return i + 1;
  return i;
}
