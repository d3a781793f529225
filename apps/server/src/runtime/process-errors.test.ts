import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleProcessErrors } from './process-errors.js';

describe('errors nothing handled, in a server process', () => {
  function setUp() {
    const target = new EventEmitter();
    const logged: string[] = [];
    const stops: [string, number | undefined][] = [];
    const log = {
      error: (_fields: Record<string, unknown>, message: string) => logged.push(`error: ${message}`),
      fatal: (_fields: Record<string, unknown>, message: string) => logged.push(`fatal: ${message}`),
    };
    handleProcessErrors(log, (reason, exitCode) => stops.push([reason, exitCode]), target);
    return { target, logged, stops };
  }

  it('logs a rejection nobody handled and carries on', () => {
    const { target, logged, stops } = setUp();
    target.emit('unhandledRejection', new Error('a background save failed'));
    expect(logged).toEqual(['error: a promise was rejected and nothing handled it; carrying on']);
    expect(stops).toEqual([]);
  });

  it('logs an exception nobody caught and stops the process gracefully, with exit code 1', () => {
    const { target, logged, stops } = setUp();
    target.emit('uncaughtException', new Error('boom'));
    expect(logged).toEqual(['fatal: an exception nothing caught; stopping this process']);
    expect(stops).toEqual([['uncaught exception', 1]]);
  });
});
