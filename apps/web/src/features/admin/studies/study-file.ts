import type { FlowDefinition, StudyDefinition } from '@studychat/contracts/web';

// A study version as a file (issue 31): its definition alone, as JSON, so it can be shared with a colleague or
// published with a paper, and a new version made from it here or on another deployment.

/** The file's name: the label in lower case, words joined by hyphens, `.study.json`. */
export function studyFileName(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || 'study'}.study.json`;
}

/** The file's text: the definition, indented, with a final newline. */
export function studyFileText(definition: StudyDefinition | FlowDefinition): string {
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/** A file read back: the definition to send (the server checks it), or what is wrong with the file. */
export function readStudyFile(
  text: string,
): { ok: true; definition: Record<string, unknown>; title: string } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The file is not JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: 'The file does not hold a study definition (a JSON object).' };
  }
  const definition = parsed as Record<string, unknown>;
  const title = typeof definition.title === 'string' && definition.title.trim() !== '' ? definition.title : 'Study';
  return { ok: true, definition, title };
}

/** Saves text as a file through the browser. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
