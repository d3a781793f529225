import { strFromU8, unzipSync } from 'fflate';
import type { MonitorReply } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { chatClient } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { csvObjects } from './parse-csv.testing.js';

interface Field {
  name: string;
  type: string;
  constraints?: { enum?: string[] };
}

// Whose chat a limit ended, in the monitor's rows and the data package, so exclusions are computable
// (issue 28, docs/decisions/0073).
describe.each(TEST_DIALECTS)('chats ended by a limit, flagged on %s', (dialect) => {
  const t = useTestApp(dialect);
  const chat = chatClient(t);

  it('names the limit in the monitor and in participants.csv, its codebook and datapackage.json', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const ended = await chat.startThread('mmr', { chat_max_messages: 1 });
    const open = await chat.joinExperiment(ended.experimentId, 'control');
    expect((await chat.send(ended.user, ended.threadId, 'My only question')).statusCode).toBe(200);
    const experimentId = ended.experimentId;

    const monitor = expectJson<MonitorReply>(
      await t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/monitor`, headers: admin.headers }),
      200,
    );
    const closedBy = Object.fromEntries(monitor.participants.map((p) => [p.user_id, p.chat_closed_by]));
    expect(closedBy).toEqual({ [ended.user.id]: 'message_limit', [open.user.id]: null });

    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export-package`,
      headers: admin.headers,
    });
    const files = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
    const participants = csvObjects(files['participants.csv'] ?? '');
    const byUser = Object.fromEntries(participants.map((p) => [p.user_id, p.chat_closed_by]));
    expect(byUser).toEqual({ [ended.user.id]: 'message_limit', [open.user.id]: '' });

    const codebook = csvObjects(files['codebook.csv'] ?? '');
    const entry = codebook.find((e) => e.file === 'participants.csv' && e.column === 'chat_closed_by');
    expect(entry?.allowed_values).toBe('message_limit; token_limit; budget');
    expect(entry?.meaning).toMatch(/exclusions/);
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as {
      resources: { path: string; schema: { fields: Field[] } }[];
    };
    const fields = descriptor.resources.find((r) => r.path === 'participants.csv')?.schema.fields ?? [];
    expect(fields.find((f) => f.name === 'chat_closed_by')).toMatchObject({
      type: 'string',
      constraints: { enum: ['message_limit', 'token_limit', 'budget'] },
    });
    const messageFields = descriptor.resources.find((r) => r.path === 'messages.csv')?.schema.fields ?? [];
    expect(messageFields.find((f) => f.name === 'usage_estimated')).toMatchObject({ type: 'boolean' });
    const messages = csvObjects(files['messages.csv'] ?? '');
    expect(new Set(messages.filter((m) => m.role === 'assistant').map((m) => m.usage_estimated))).toEqual(
      new Set(['FALSE']),
    );
  });
});
