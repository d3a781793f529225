import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { experimentExists } from './analytics.repository.js';
import type { CsvColumn } from './csv.js';
import { csvOf, messageRecords } from './export.service.js';
import { redact } from './redact.js';
import { formulaSafe } from './spreadsheet-cell.js';

// Transcripts for sharing outside the team: every chat message with emails, phone numbers and introduced
// names redacted (redact.ts: best effort), and no ids that lead back to a person: participants are numbered
// in the order their chats started (the numbering is not kept anywhere else). The file is for people to open,
// often in a spreadsheet, not for analysis: text that would run as a formula there (`=HYPERLINK(...)`) gets a
// leading `'`, as in the .xlsx copy (spreadsheet-cell.ts; docs/decisions/0035, 0074).

export interface TranscriptRecord {
  participant: string;
  condition: string;
  position: number;
  role: string;
  text: string;
  createdAt: string;
}

export const TRANSCRIPT_COLUMNS: readonly CsvColumn<TranscriptRecord>[] = [
  {
    name: 'participant',
    type: 'text',
    meaning: 'Participant number in this file (P0001, ...), in the order the chats started',
    value: (r) => r.participant,
  },
  // The experiment's study version declares the conditions (docs/decisions/0061); this file has no codebook.
  { name: 'condition', type: 'text', meaning: 'Condition', value: (r) => r.condition },
  { name: 'position', type: 'integer', meaning: 'Order in the chat, from 0', value: (r) => r.position },
  { name: 'role', type: 'text', meaning: "'user' or 'assistant'", value: (r) => r.role },
  {
    name: 'text',
    type: 'text',
    meaning:
      "The message with emails, phone numbers and introduced names replaced by [EMAIL], [PHONE], [NAME]; text starting with =, +, -, @, a tab or a line break gets a leading ' so a spreadsheet does not run it",
    value: (r) => r.text,
  },
  { name: 'created_at', type: 'timestamp', meaning: 'When the message was stored', value: (r) => r.createdAt },
];

async function* transcriptRecords(
  db: Kysely<DB>,
  experimentId: string,
  includeTests: boolean,
): AsyncGenerator<TranscriptRecord[]> {
  const numbers = new Map<string, string>();
  for await (const page of messageRecords(db, experimentId, undefined, includeTests)) {
    yield page.map((m) => {
      let participant = numbers.get(m.threadId);
      if (participant === undefined) {
        participant = `P${String(numbers.size + 1).padStart(4, '0')}`;
        numbers.set(m.threadId, participant);
      }
      return {
        participant,
        condition: formulaSafe(m.condition),
        position: m.position,
        role: m.role,
        text: formulaSafe(redact(m.content)),
        createdAt: m.createdAt,
      };
    });
  }
}

export async function exportTranscripts(
  database: Database,
  experimentId: string,
  includeTests = false,
): Promise<{ filename: string; body: Readable }> {
  if (!(await experimentExists(database.db, experimentId))) throw notFound('Experiment not found');
  const body = Readable.from(csvOf(TRANSCRIPT_COLUMNS, transcriptRecords(database.db, experimentId, includeTests)), {
    objectMode: false,
    highWaterMark: 64 * 1024,
  });
  return { filename: `experiment-${experimentId}-transcripts-redacted.csv`, body };
}
