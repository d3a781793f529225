import { EventStreamParser, type StreamEvent } from '@studychat/contracts';

// The providers' streams read with the event-stream parser the browser uses too (packages/contracts, decision
// 0070). The SDKs still build the request, send it and turn an error status into their APIError; only the 200
// response's body is read here. Their own stream readers (three nested async generators, a byte line decoder
// and class private fields per event) were the largest part of the server's CPU per streamed token.

/** One server-sent event of a provider's stream. */
export type SseEvent = StreamEvent;

/**
 * Reads a streamed response's body to its end, handing each event to `onEvent` as it completes; an event the
 * stream cut off before its blank line is dropped, as the format says. An error thrown by `onEvent` (or by the
 * body: an abort, a connection cut off) cancels the body, which releases the connection, and is thrown on.
 */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  const body = response.body;
  if (!body) throw new Error('The provider answered without a body');
  const decoder = new TextDecoder();
  const parser = new EventStreamParser(onEvent);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}
