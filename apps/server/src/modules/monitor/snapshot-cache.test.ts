import type { MonitorReply } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/app.js';
import { SnapshotCache } from './snapshot-cache.js';

const snapshot = (seq: number, n: number) => ({ seq, generated_at: String(n) }) as unknown as MonitorReply;

describe('the shared monitor snapshot', () => {
  it('reuses a snapshot while it is young and the log has not moved, and computes again otherwise', async () => {
    const clock = new TestClock();
    const cache = new SnapshotCache(2000, clock.fn);
    let seq = 5;
    let computed = 0;
    const get = () =>
      cache.get(
        'e1',
        () => Promise.resolve(seq),
        () => Promise.resolve(snapshot(seq, ++computed)),
      );
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(computed).toBe(1);
    clock.advance(1000);
    expect(await get()).toBe(a);
    seq = 6;
    expect((await get()).seq).toBe(6);
    expect(computed).toBe(2);
    clock.advance(2500);
    await get();
    expect(computed).toBe(3);
  });

  it('is off with a time-to-live of 0', async () => {
    const cache = new SnapshotCache(0, new TestClock().fn);
    let computed = 0;
    const get = () =>
      cache.get(
        'e1',
        () => Promise.resolve(1),
        () => Promise.resolve(snapshot(1, ++computed)),
      );
    await get();
    await get();
    expect(computed).toBe(2);
  });
});
