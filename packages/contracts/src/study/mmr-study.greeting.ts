/** Canned greeting the chat page shows when the initial message can be neither streamed nor fetched. */
export const mmrFallbackGreeting =
  "Hello! I'm here to chat with you about vaccines and any questions you may have. What would you like to know?";
