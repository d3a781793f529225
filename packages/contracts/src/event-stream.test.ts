import { describe, expect, it } from 'vitest';
import { EventStreamParser, type StreamEvent } from './event-stream.js';

function read(pieces: string[], options?: { dispatchCutOff?: boolean }): StreamEvent[] {
  const events: StreamEvent[] = [];
  const parser = new EventStreamParser((e) => events.push(e));
  for (const piece of pieces) parser.push(piece);
  parser.end(options);
  return events;
}

describe('EventStreamParser', () => {
  it('hands each event over as its blank line arrives, however the text is cut', () => {
    const events: StreamEvent[] = [];
    const parser = new EventStreamParser((e) => events.push(e));
    parser.push('event: a\r');
    parser.push('\ndata: 1\r');
    expect(events).toEqual([]);
    parser.push('\n\r\n');
    expect(events).toEqual([{ event: 'a', data: '1' }]);
  });

  it('drops an event cut off before its blank line by default, as the format says', () => {
    expect(read(['data: kept\n\ndata: cut'])).toEqual([{ event: null, data: 'kept' }]);
    expect(read(['data: kept\n\ndata: cut\n'])).toEqual([{ event: null, data: 'kept' }]);
  });

  it('with dispatchCutOff, still counts the last line and event, and a CR at the very end ends its line', () => {
    expect(read(['data: kept\n\ndata: cut'], { dispatchCutOff: true })).toEqual([
      { event: null, data: 'kept' },
      { event: null, data: 'cut' },
    ]);
    expect(read(['data: a\r'], { dispatchCutOff: true })).toEqual([{ event: null, data: 'a' }]);
    expect(read(['data: a\n\n'], { dispatchCutOff: true })).toEqual([{ event: null, data: 'a' }]);
  });
});
