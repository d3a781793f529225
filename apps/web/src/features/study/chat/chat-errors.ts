// Error texts of spec section 8, in one place.

export const MISSING_PROPS_ERROR = 'Cannot start chat: Missing required properties (experimentId, currentUser).';

/** The error's own message, or the spec's fallback for that call. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

export const initializeError = (error: unknown) =>
  `Failed to initialize chat: ${messageOf(error, 'Failed to initiate chat')}`;

export const startError = (error: unknown) =>
  `Failed to start chat: ${withStop(messageOf(error, 'Failed to initiate chat'))} Please try refreshing the page.`;

export const sendError = (error: unknown) => `Failed to send message: ${messageOf(error, 'Error sending message')}`;

function withStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
