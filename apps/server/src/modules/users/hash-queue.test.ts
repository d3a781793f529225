import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { HashQueue } from './hash-queue.js';

/** A task the test finishes by hand, so "running" and "waiting" are states, not races. */
function task(log: string[], name: string) {
  let finish = () => undefined as void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish,
    run: async () => {
      log.push(`start ${name}`);
      await done;
      return name;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HashQueue', () => {
  it('runs at most `concurrency` tasks at once and starts waiting ones as slots free up', async () => {
    const log: string[] = [];
    const queue = new HashQueue(2, 10);
    const [a, b, c] = [task(log, 'a'), task(log, 'b'), task(log, 'c')];
    const results = [queue.run('unknown', a.run), queue.run('unknown', b.run), queue.run('unknown', c.run)];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect(queue.load).toEqual({ active: 2, waiting: 1 });
    a.finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    b.finish();
    c.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(queue.load).toEqual({ active: 0, waiting: 0 });
  });

  it('lets callers from a known address go ahead of the others', async () => {
    const log: string[] = [];
    const queue = new HashQueue(1, 10);
    const first = task(log, 'first');
    const running = queue.run('unknown', first.run);
    const guess = task(log, 'guess');
    const owner = task(log, 'owner');
    const waiting = [queue.run('unknown', guess.run), queue.run('known', owner.run)];
    await tick();
    first.finish();
    await running;
    await tick();
    expect(log).toEqual(['start first', 'start owner']);
    owner.finish();
    guess.finish();
    await Promise.all(waiting);
  });

  it('answers 503 SERVICE_BUSY with Retry-After at once when too many are waiting, and recovers', async () => {
    const log: string[] = [];
    const queue = new HashQueue(1, 1);
    const a = task(log, 'a');
    const b = task(log, 'b');
    const running = [queue.run('unknown', a.run), queue.run('unknown', b.run)];
    const refused = await queue.run('unknown', () => Promise.resolve('c')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, code: 'SERVICE_BUSY', retryAfterSeconds: 2 });
    a.finish();
    b.finish();
    await Promise.all(running);
    expect(await queue.run('unknown', () => Promise.resolve('d'))).toBe('d');
  });

  it('frees the slot when a task fails', async () => {
    const queue = new HashQueue(1, 0);
    await expect(queue.run('unknown', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run('unknown', () => Promise.resolve('ok'))).toBe('ok');
  });
});
