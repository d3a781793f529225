import type { Journey, SectionReply, SectionTiming } from '@studychat/contracts';
import type { SectionViewRow } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import type { JourneyState } from './journey-records.js';
import { sectionTimingAt, toSectionTiming } from './journey.mapper.js';
import {
  journeyWrite,
  journeyWriteThenIf,
  type StepContext,
  type StepEvent,
  type StepOutcome,
} from './journey.service.js';
import { finishSectionView, insertSectionView, type OpenedSectionView } from './section-views.repository.js';

// Server-timed static sections: the server records when each section was opened and finished, and accepts
// finishing only once the section's minimum has passed on its own clock (wall time). The seconds the page
// reports (visible, hidden) are stored beside the server's times, never used to decide.

export interface FinishInput {
  experimentId: string;
  sectionIndex: number;
  visibleSeconds: number;
  hiddenSeconds: number;
}

function reply(state: JourneyState, index: number, now: Date): SectionReply {
  const section = sectionTimingAt(state, index, now.getTime());
  // journeyWrite only calls back for a section of the participant's condition.
  if (!section) throw new Error(`section ${index} is not in the participant's condition`);
  return { section, serverTime: now.toISOString() };
}

/** A finish's reply again (a repeat): the section, and the next one its finish opened. */
function finishReply(state: JourneyState, index: number, now: Date): SectionReply {
  const next = sectionTimingAt(state, index + 1, now.getTime());
  return { ...reply(state, index, now), ...(next?.openedAt ? { next } : {}) };
}

/**
 * Opens section `index` in the step's transaction (its record; its `section_opened` event is the caller's to
 * log); returns its timing. The caller has checked that this section may be opened now.
 */
async function openView(deps: AppDeps, ctx: StepContext, index: number): Promise<SectionTiming> {
  const { state, now } = ctx;
  const section = state.sections[index];
  const record = state.records.sections[index];
  const condition = state.records.condition;
  if (!section || !record || !condition) throw new Error(`section ${index} cannot be opened`);
  const { assignment } = state.facts;
  const view: OpenedSectionView = {
    id: deps.newId(),
    assignment_id: assignment.id,
    user_id: assignment.user_id,
    experiment_id: assignment.experiment_id,
    condition,
    section_index: index,
    section_id: section.id,
    min_seconds: record.minSeconds,
    opened_at: now.toISOString(),
    finished_at: null,
    visible_seconds: null,
    hidden_seconds: null,
    // The version the participant runs under (stamped on their assignment when they joined).
    study_version_id: assignment.study_version_id,
  };
  await insertSectionView(ctx.trx, view);
  return toSectionTiming(section, index, { ...record, openedAt: now.getTime() }, view, now.getTime());
}

/** Opens a section once: allowed only for the section after the last one finished in time. */
export function openSection(
  deps: AppDeps,
  userId: string,
  input: { experimentId: string; sectionIndex: number },
): Promise<SectionReply> {
  const index = input.sectionIndex;
  return journeyWrite<SectionReply>(
    deps,
    { userId, experimentId: input.experimentId, write: { kind: 'section_open', index } },
    {
      repeat: async ({ state, now }) => reply(state, index, now),
      apply: async (ctx) => ({
        result: { section: await openView(deps, ctx, index), serverTime: ctx.now.toISOString() },
        event: openedEvent(ctx, index),
      }),
    },
  );
}

function openedEvent(ctx: StepContext, index: number): StepEvent {
  return { type: 'section_opened', data: { sectionIndex: index, sectionId: ctx.state.sections[index]?.id } };
}

/**
 * Finishes the opened current section once its minimum has passed on the server's clock; earlier, 409
 * SECTION_TOO_EARLY with the seconds left (logged as `section_too_early`, nothing else written). Finishing the
 * last section leads to the chat page: its reply carries the journey after it (docs/decisions/0068).
 */
export async function finishSection(
  deps: AppDeps,
  userId: string,
  input: FinishInput,
): Promise<SectionReply & { journey?: Journey }> {
  const index = input.sectionIndex;
  const write = { userId, experimentId: input.experimentId, write: { kind: 'section_finish', index } } as const;
  const handlers = {
    repeat: async ({ state, now }: StepContext) => finishReply(state, index, now),
    apply: async (ctx: StepContext): Promise<StepOutcome<SectionReply>> => {
      const { trx, state, now } = ctx;
      const section = state.sections[index];
      const record = state.records.sections[index];
      const view = state.facts.views.find((v) => v.section_index === index);
      if (!section || !record || record.openedAt === null || !view) throw new Error(`section ${index} is not open`);
      const elapsedMs = now.getTime() - record.openedAt;
      const leftMs = record.minSeconds * 1000 - elapsedMs;
      if (leftMs > 0) {
        const remainingSeconds = Math.ceil(leftMs / 1000);
        return {
          refusal: new AppError(
            409,
            'SECTION_TOO_EARLY',
            `Please keep reading: this section can be finished in ${remainingSeconds} second${remainingSeconds === 1 ? '' : 's'}.`,
            undefined,
            { remainingSeconds },
          ),
          event: { type: 'section_too_early', data: { sectionIndex: index, remainingSeconds } },
        };
      }
      const finishedAt = now.toISOString();
      const finish = { finishedAt, visibleSeconds: input.visibleSeconds, hiddenSeconds: input.hiddenSeconds };
      // The participant's row is locked and the view was read after the lock: it is there.
      if (!(await finishSectionView(trx, view.id, finish))) throw new Error(`section ${index} could not be finished`);
      const row: SectionViewRow = {
        ...view,
        finished_at: finishedAt,
        visible_seconds: input.visibleSeconds,
        hidden_seconds: input.hiddenSeconds,
      };
      const finished: StepEvent = {
        type: 'section_finished',
        data: {
          sectionIndex: index,
          sectionId: section.id,
          serverSeconds: Math.round(elapsedMs) / 1000,
          visibleSeconds: input.visibleSeconds,
          hiddenSeconds: input.hiddenSeconds,
        },
      };
      // The next section opens in the same write, so the page needs no second request (issue 16): its clock
      // starts now, when the page shows it. Its event follows the finish's.
      let next: SectionTiming | undefined;
      if (index + 1 < state.sections.length) {
        await ctx.log(finished);
        next = await openView(deps, ctx, index + 1);
      }
      return {
        result: {
          section: toSectionTiming(section, index, { ...record, finishedAt: now.getTime() }, row, now.getTime()),
          serverTime: finishedAt,
          ...(next ? { next } : {}),
        },
        event: next ? openedEvent(ctx, index + 1) : finished,
      };
    },
  };
  // No next section: the chat page comes next.
  const { value, journey } = await journeyWriteThenIf(deps, write, handlers, (reply) => reply.next === undefined);
  return journey ? { ...value, journey } : value;
}
