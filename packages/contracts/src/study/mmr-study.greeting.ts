import type { BuiltInCondition } from './types.js';

/** Canned greetings the chat page shows when the initial message can be neither streamed nor fetched. */
export const mmrFallbackGreetings: Record<BuiltInCondition, string> = {
  mmr: "Hello! I'm here to chat with you about vaccines and any questions you may have. What would you like to know?",
  control:
    "Hello! I'm here to chat with you about car-seat safety for young children and any questions you may have. What would you like to know?",
};
