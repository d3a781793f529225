import type { FlowDefinition } from '@studychat/contracts/web';
import { createContext, useContext } from 'react';

/**
 * What the builder's forms read besides the draft (editor/draft-context: one place by its path): the flow as a
 * whole, a whole-flow edit (add, move, remove a step), and the answer keys a step may pipe.
 */
export interface BuilderApi {
  flow: FlowDefinition;
  change: (edit: (flow: FlowDefinition) => FlowDefinition) => void;
}

export const BuilderContext = createContext<BuilderApi | null>(null);

export function useBuilder(): BuilderApi {
  const api = useContext(BuilderContext);
  if (!api) throw new Error('useBuilder outside the flow builder');
  return api;
}

/** The step whose form this is: its place, and the answers given before it (what it may pipe or test). */
export interface StepPlace {
  index: number;
  earlier: string[];
}

export const StepContext = createContext<StepPlace>({ index: 0, earlier: [] });

export const useStep = (): StepPlace => useContext(StepContext);
