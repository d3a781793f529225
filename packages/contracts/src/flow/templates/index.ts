import type { FlowDefinition } from '../types.js';
import { beliefChangeTemplate } from './belief-change.js';
import { modelComparisonTemplate } from './model-comparison.js';
import { threeArmTemplate } from './three-arm.js';

/** The study templates shipped beside the built-in study, each cloneable from the Studies page. */
export const FLOW_TEMPLATES: readonly FlowDefinition[] = [
  beliefChangeTemplate,
  threeArmTemplate,
  modelComparisonTemplate,
];

export { beliefChangeTemplate, modelComparisonTemplate, threeArmTemplate };
