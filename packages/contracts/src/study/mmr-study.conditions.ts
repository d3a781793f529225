import type { ConditionDeclaration } from './types.js';

/**
 * The built-in MMR study's conditions (docs/decisions/0061); also what a version stored before conditions
 * were data ran with. A fresh copy each call, so no caller can change another's.
 */
export function builtInConditionList(): ConditionDeclaration[] {
  return [
    { id: 'mmr', label: 'Vaccine information (MMR)' },
    { id: 'control', label: 'Car seat information (control)' },
  ];
}
