import { PATHWAYS, type Pathway } from '@studychat/contracts/web';

export function isPathway(value: unknown): value is Pathway {
  return typeof value === 'string' && (PATHWAYS as readonly string[]).includes(value);
}

/** The completion pathway: navigation state first, then the `pathway` query parameter, then the stored status. */
export function resolvePathway(navState: unknown, queryValue: string | null, stored: Pathway | null): Pathway | null {
  const fromState =
    navState && typeof navState === 'object' && 'pathway' in navState
      ? (navState as { pathway: unknown }).pathway
      : null;
  if (isPathway(fromState)) return fromState;
  if (isPathway(queryValue)) return queryValue;
  return stored;
}
