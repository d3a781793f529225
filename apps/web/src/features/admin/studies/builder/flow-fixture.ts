import type { FlowDefinition, FlowStep } from '@studychat/contracts/web';
import { draftVersion } from '../study-fixture';
import { blankFlow } from './defaults';

/** A flow for the builder's tests: the blank study with `steps` before its end, and these conditions. */
export function testFlow(steps: FlowStep[] = [], conditions = ['main']): FlowDefinition {
  const blank = blankFlow();
  const [consent, end] = blank.steps as [FlowStep, FlowStep];
  return {
    ...blank,
    conditions: conditions.map((id) => ({ id, label: id.toUpperCase() })),
    pathways: [...blank.pathways, { key: 'screened', label: 'Screened out' }],
    steps: [consent, ...steps, end, { id: 'out', type: 'end', pathway: 'screened', title: 'Sorry', blocks: [] }],
  };
}

/** A draft version holding a flow. */
export const flowVersion = (flow: FlowDefinition) =>
  draftVersion({ definition: flow as never, title: flow.title, study_id: flow.id });
