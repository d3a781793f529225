import { endpoints, PASTE_LENGTH_MAX } from '@studychat/contracts/web';
import { api } from '../../../lib/api';

/**
 * Tells the server the chat box blocked a paste: the pasted length only, never the text (docs/decisions/0028).
 * Best effort: the participant never waits for it, and a failure is ignored.
 */
export function reportBlockedPaste(experimentId: string, length: number): void {
  api(endpoints.chat.pasteBlocked, {
    body: { experimentId, length: Math.min(length, PASTE_LENGTH_MAX) },
  }).catch(() => undefined);
}
