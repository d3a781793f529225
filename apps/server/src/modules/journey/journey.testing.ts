import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import type { LightMyRequestResponse } from 'fastify';
import type { JourneyEventRow } from '../../db/schema.js';
import type { TestApp, TestUser } from '../../../test/app.js';
import { listParticipantEvents } from './journey-events.repository.js';

// Test helpers for the journey module: a small study definition, the participant's records, the event log.

/** The real study with two short known sections per condition, so the rules are tested against the definition passed in. */
export const twoSectionStudy: StudyDefinition = {
  ...studyDefinition,
  conditions: {
    mmr: {
      topic: 'mmr',
      sections: [
        { id: 'mmr-a', title: 'A', minSeconds: 15, blocks: [] },
        { id: 'mmr-b', title: 'B', minSeconds: 40, blocks: [] },
      ],
    },
    control: {
      topic: 'control',
      sections: [
        { id: 'control-a', title: 'A', minSeconds: 15, blocks: [] },
        { id: 'control-b', title: 'B', minSeconds: 40, blocks: [] },
      ],
    },
  },
};

/** Every row a participant's journey writes, outside the event log, in a stable order. */
export async function participantRecords(t: TestApp, userId: string, experimentId: string) {
  const { db } = t.database;
  const assignments = await db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .execute();
  const assignmentIds = assignments.map((a) => a.id);
  const byUser = { userId, experimentId };
  return {
    assignments,
    surveys: await db
      .selectFrom('survey_responses')
      .selectAll()
      .where('user_id', '=', byUser.userId)
      .where('experiment_id', '=', byUser.experimentId)
      .orderBy('survey_type')
      .execute(),
    views: await db
      .selectFrom('section_views')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('section_index')
      .execute(),
    threads: await db.selectFrom('chat_threads').selectAll().where('user_id', '=', userId).execute(),
    messages: await db
      .selectFrom('chat_messages as m')
      .innerJoin('chat_threads as th', 'th.id', 'm.thread_id')
      .selectAll('m')
      .where('th.user_id', '=', userId)
      .orderBy('m.position')
      .execute(),
    claims: await db.selectFrom('experiment_prolific_ids').selectAll().where('user_id', '=', userId).execute(),
    slots:
      assignmentIds.length === 0
        ? []
        : await db.selectFrom('allocation_slots').selectAll().where('assignment_id', 'in', assignmentIds).execute(),
  };
}

export function eventsOf(t: TestApp, user: TestUser, experimentId: string): Promise<JourneyEventRow[]> {
  return listParticipantEvents(t.database.db, experimentId, user.id);
}

/** An event's JSON data as an object. */
export function dataOf(event: JourneyEventRow | undefined): unknown {
  return event?.data ? JSON.parse(event.data) : null;
}

export type ErrorBody = { error: string; code: string; step?: string; remainingSeconds?: number };

export function errorOf(res: LightMyRequestResponse): ErrorBody {
  return res.json() as ErrorBody;
}
