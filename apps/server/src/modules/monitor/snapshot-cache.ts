import type { MonitorReply } from '@studychat/contracts';

/**
 * Shares one monitor snapshot between the admins watching an experiment (docs/decisions/0031): a snapshot
 * is reused while it is younger than `ttlMs` and the event log has not moved past its position; concurrent
 * requests wait for the same computation. Per process, like the stream's poll. ttlMs 0 turns it off.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { at: number; reply: Promise<MonitorReply> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => Date,
  ) {}

  /** `key`: the experiment's id, or the id with the reply's variant (the list with test runs). */
  async get(
    key: string,
    currentSeq: () => Promise<number>,
    compute: () => Promise<MonitorReply>,
  ): Promise<MonitorReply> {
    if (this.ttlMs <= 0) return compute();
    const now = this.clock().getTime();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.ttlMs && now >= entry.at) {
      try {
        const reply = await entry.reply;
        if (reply.seq === (await currentSeq())) return reply;
      } catch {
        // A failed computation is not reused.
      }
    }
    const reply = compute();
    this.entries.set(key, { at: now, reply });
    reply.catch(() => this.entries.delete(key));
    // Entries of experiments nobody watches any more go with the next write past this size.
    if (this.entries.size > 100) this.entries.delete(this.entries.keys().next().value ?? '');
    return reply;
  }
}
