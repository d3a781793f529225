import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toIso, toIsoOrNull, toMillis, toNumber, toNumberOrNull } from '../../db/values.js';
import { pageParticipantBase, participantCursor } from './analytics.repository.js';
import { keysetPages } from './keyset.js';
import type { EventRecord, PageTimeRecord } from './package-columns.js';
import { listSectionViewsOf, listStepEventsOf, pageEvents, type StepEventRow } from './package.repository.js';

/** Each timed step: the event that starts it and the one that finishes it. */
const STEP_EVENTS = [
  ['consent', 'joined', 'consented'],
  ['entry', 'consented', 'entry'],
  ['baseline', 'entry', 'baseline'],
  ['pre_survey', 'baseline', 'pre_survey'],
  ['chat', 'chat_started', 'chat_complete'],
  ['post_survey', 'chat_complete', 'post_survey'],
] as const;
const STEP_EVENT_TYPES = [...new Set(STEP_EVENTS.flatMap(([, start, end]) => [start, end]))];

function seconds(start: Date | string, end: Date | string): number {
  return (toMillis(end) - toMillis(start)) / 1000;
}

function stepRows(
  experimentId: string,
  userId: string,
  prolificPid: string | null,
  events: StepEventRow[],
): PageTimeRecord[] {
  // The first event of each type is the accepted one (a step is accepted once).
  const at = new Map<string, Date | string>();
  for (const e of events) if (!at.has(e.type)) at.set(e.type, e.created_at);
  return STEP_EVENTS.flatMap(([page, startType, endType]) => {
    const start = at.get(startType);
    if (start === undefined) return [];
    const end = at.get(endType) ?? null;
    return [
      {
        experimentId,
        userId,
        prolificPid,
        page,
        sectionIndex: null,
        sectionId: null,
        startedAt: toIso(start),
        finishedAt: end === null ? null : toIso(end),
        serverSeconds: end === null ? null : seconds(start, end),
        visibleSeconds: null,
        hiddenSeconds: null,
        minSeconds: null,
        minMet: null,
      },
    ];
  });
}

/** page_times.csv: per participant (enrolment order), the timed steps, then the sections by index. */
export async function* pageTimeRecords(
  db: Kysely<DB>,
  experimentId: string,
  pageSize = 1000,
  includeTests = false,
): AsyncGenerator<PageTimeRecord[]> {
  const pages = keysetPages(
    (after, limit) => pageParticipantBase(db, experimentId, after, limit, includeTests),
    participantCursor,
    pageSize,
  );
  for await (const page of pages) {
    const userIds = page.map((p) => p.user_id);
    const [views, events] = await Promise.all([
      listSectionViewsOf(db, experimentId, userIds),
      listStepEventsOf(db, experimentId, userIds, STEP_EVENT_TYPES),
    ]);
    const group = <T extends { user_id: string }>(rows: T[]) => {
      const byUser = new Map<string, T[]>();
      for (const row of rows) {
        const list = byUser.get(row.user_id);
        if (list) list.push(row);
        else byUser.set(row.user_id, [row]);
      }
      return byUser;
    };
    const viewsByUser = group(views);
    const eventsByUser = group(events);
    yield page.flatMap((p) => [
      ...stepRows(experimentId, p.user_id, p.prolific_pid, eventsByUser.get(p.user_id) ?? []),
      ...(viewsByUser.get(p.user_id) ?? []).map((v): PageTimeRecord => {
        const server = v.finished_at === null ? null : seconds(v.opened_at, v.finished_at);
        return {
          experimentId,
          userId: p.user_id,
          prolificPid: p.prolific_pid,
          page: 'section',
          sectionIndex: v.section_index,
          sectionId: v.section_id,
          startedAt: toIso(v.opened_at),
          finishedAt: toIsoOrNull(v.finished_at),
          serverSeconds: server,
          visibleSeconds: toNumberOrNull(v.visible_seconds),
          hiddenSeconds: toNumberOrNull(v.hidden_seconds),
          minSeconds: v.min_seconds,
          minMet: server === null ? null : server >= v.min_seconds,
        };
      }),
    ]);
  }
}

/** events.csv: the experiment's journey event log in order. */
export async function* eventRecords(
  db: Kysely<DB>,
  experimentId: string,
  pageSize = 5000,
  includeTests = false,
): AsyncGenerator<EventRecord[]> {
  const pages = keysetPages(
    (after: number | null, limit) => pageEvents(db, experimentId, after, limit, includeTests),
    (row) => toNumber(row.seq),
    pageSize,
  );
  for await (const page of pages) {
    yield page.map((row) => ({
      seq: toNumber(row.seq),
      experimentId: row.experiment_id,
      userId: row.user_id,
      prolificPid: row.prolific_pid,
      type: row.type,
      step: row.step,
      data: row.data,
      createdAt: toIso(row.created_at),
    }));
  }
}
