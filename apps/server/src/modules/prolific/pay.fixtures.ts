import { randomUUID } from 'node:crypto';
import type { TestApp, TestUser } from '../../../test/app.js';
import { buildAssignment, insertExperimentRow, insertUserRow } from '../../../test/factories.js';
import type { FakeProlific } from '../../../test/fakes/prolific-fake.js';

// Shared by the reject and bonus tests (both databases): an experiment linked to a Prolific study, and
// participants with a Prolific id, a pathway and a submission status as Prolific's webhooks leave them.

export const STUDY = '60aca280709ee40ec37d4885';

export function payFixtures(t: () => TestApp, fake: () => FakeProlific, admin: () => TestUser) {
  const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t().app.inject({ method, url, headers: admin().headers, ...(payload ? { payload } : {}) });

  async function linkedExperiment(): Promise<string> {
    const id = String((await insertExperimentRow(t().database.db)).id);
    const res = await send('PUT', `/api/experiments/${id}/prolific-study`, { studyId: STUDY });
    if (res.statusCode !== 200) throw new Error(res.body);
    return id;
  }

  /** A participant; `status` null leaves no webhook row (Prolific's submission not known here). */
  async function participant(
    experimentId: string,
    options: { pathway?: string | null; status?: string | null; isTest?: boolean } = {},
  ): Promise<{ assignmentId: string; pid: string; submissionId: string }> {
    const db = t().database.db;
    const user = await insertUserRow(db);
    const submissionId = `SUB${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const pid = `PID${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const row = buildAssignment(
      { userId: String(user.id), experimentId },
      { prolific_pid: pid, completion_pathway: options.pathway ?? 'complete', is_test: options.isTest ?? false },
    );
    await db.insertInto('assignments').values(row).execute();
    const status = options.status === undefined ? 'awaiting_review' : options.status;
    if (status !== null) {
      const at = new Date().toISOString();
      await db
        .insertInto('prolific_submissions')
        .values({ assignment_id: String(row.id), submission_id: submissionId, status, status_at: at, updated_at: at })
        .execute();
      fake().submissions.push({
        id: submissionId,
        participant_id: pid,
        study_id: STUDY,
        status: status === 'awaiting_review' ? 'AWAITING REVIEW' : status.toUpperCase(),
      });
    }
    return { assignmentId: String(row.id), pid, submissionId };
  }

  const auditOf = async (action: string, experimentId: string) =>
    (
      await t()
        .database.db.selectFrom('audit_log')
        .select('details')
        .where('action', '=', action)
        .where('target_id', '=', experimentId)
        .orderBy('created_at')
        .execute()
    ).map((r) => JSON.parse(String(r.details)) as Record<string, unknown>);

  return { send, linkedExperiment, participant, auditOf };
}
