import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { updateStreamingContents } from './chat.repository.js';

/**
 * Replies one statement saves at most. Where statements run on the event loop (SQLite) a statement holds every
 * stream while it runs, and its `case id when ...` costs more than linearly: 200 replies in one statement held the
 * loop 6-17 ms, 25 replies about 0.2 ms (docs/decisions/0065). Where they run in the database server (PostgreSQL),
 * one statement a save is kept (two parameters a reply, well inside its limit).
 */
export function savesPerStatement(database: { runsOnEventLoop: boolean }): number {
  return database.runsOnEventLoop ? 25 : 500;
}

/** Lets the event loop serve what is waiting (tokens, requests) between two statements of one save. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Entry {
  text: string;
  dirty: boolean;
}

/**
 * The process's saves of the replies being streamed (docs/decisions/0014, 0058, 0065): the first token to arrive
 * once `intervalMs` has passed on the app's clock since the last save writes the text of every reply that grew
 * meanwhile, in one statement (on SQLite, a statement per 25 replies, each in its own turn of the event loop),
 * instead of one statement per reply. So a crash loses at most the text that
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
    /** Replies a statement saves at most; the statements of one save run in turns of the event loop of their own. */
    private readonly perStatement: number = 500,
  ) {
    this.savedAt = clock().getTime();
  }

  /** The reply's whole text so far; saves every grown reply if the interval has passed. */
  note(messageId: string, text: string): void {
    const entry = this.replies.get(messageId);
    if (entry) {
      entry.text = text;
      entry.dirty = true;
    } else this.replies.set(messageId, { text, dirty: true });
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
      for (let i = 0; i < batch.length; i += this.perStatement) {
        const part = batch.slice(i, i + this.perStatement);
        // Each statement in a turn of its own: tokens that arrived meanwhile are sent first.
        await nextTurn();
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
