/** The JSON view's text as an object, or why it is not one. */
export function parseDefinition(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: 'the definition must be a JSON object' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'cannot be read' };
  }
}

/** How the editor writes the definition (the JSON view's text, and what the diff compares). */
export const formatDefinition = (value: unknown): string => JSON.stringify(value, null, 2);
