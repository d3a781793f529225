import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { updateStreamingContents } from './chat.repository.js';

/** Replies one statement saves at most (two parameters each, well inside both databases' limits). */
const MAX_PER_STATEMENT = 500;

interface Entry {
  text: string;
  dirty: boolean;
}

/**
 * The process's saves of the replies being streamed (docs/decisions/0014, 0058): the first token to arrive
 * once `intervalMs` has passed on the app's clock since the last save writes the text of every reply that grew
 * meanwhile, in one statement, instead of one statement per reply. So a crash loses at most the text that
 * arrived within `intervalMs` before the last token the process received (plus a save in flight). Saves run
 * one after another, so an older text never overwrites a newer one; the statement writes only rows still
 * `streaming`, so it never overwrites a finished reply.
 */
export class PartialSaver {
  private readonly replies = new Map<string, Entry>();
  private savedAt: number;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.savedAt = clock().getTime();
  }

  /** The reply's whole text so far; saves every grown reply if the interval has passed. */
  note(messageId: string, text: string): void {
    this.replies.set(messageId, { text, dirty: true });
    if (this.clock().getTime() - this.savedAt >= this.intervalMs) this.save();
  }

  /** The reply has ended: no more saves of it. Resolves once a save that may hold it has finished. */
  forget(messageId: string): Promise<void> {
    this.replies.delete(messageId);
    return this.saving;
  }

  private save(): void {
    this.savedAt = this.clock().getTime();
    const batch: { id: string; content: string }[] = [];
    for (const [id, entry] of this.replies) {
      if (!entry.dirty) continue;
      entry.dirty = false;
      batch.push({ id, content: entry.text });
    }
    if (batch.length === 0) return;
    this.saving = this.saving.then(async () => {
      for (let i = 0; i < batch.length; i += MAX_PER_STATEMENT) {
        const part = batch.slice(i, i + MAX_PER_STATEMENT);
        try {
          await updateStreamingContents(this.db, part);
        } catch (error) {
          // Tried again with the next save, if the reply is still streaming and has not grown since.
          for (const { id, content } of part) {
            const entry = this.replies.get(id);
            if (entry && entry.text === content) entry.dirty = true;
          }
          this.onError(error);
        }
      }
    });
  }
}
