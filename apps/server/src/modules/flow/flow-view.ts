import {
  pipeAnswers,
  sectionMinSeconds,
  stepsFor,
  type Answers,
  type ContentBlock,
  type FlowDefinition,
  type FlowStepView,
  type FlowView,
} from '@studychat/contracts';
import type { FlowState } from '../journey/journey.service.js';

// The participant's view of where they are in a flow (issue 30): the step in the study's words with their
// answers piped in. Never a prompt, a scripted reply or an attention check's expected answer.

function pipedBlock(block: ContentBlock, text: (t: string) => string): ContentBlock {
  return {
    ...block,
    ...(block.markdown !== undefined ? { markdown: text(block.markdown) } : {}),
    ...(block.heading !== undefined ? { heading: text(block.heading) } : {}),
    ...(block.paragraphs ? { paragraphs: block.paragraphs.map(text) } : {}),
    ...(block.bullets ? { bullets: block.bullets.map(text) } : {}),
    ...(block.table
      ? {
          table: {
            caption: text(block.table.caption),
            columns: block.table.columns.map(text),
            rows: block.table.rows.map((row) => row.map(text)),
          },
        }
      : {}),
  };
}

/** Seconds left before a page's minimum time has passed since the participant reached it (rounded up). */
export function remainingSeconds(minSeconds: number | undefined, reachedAt: number, now: Date): number {
  if (!minSeconds) return 0;
  return Math.max(0, Math.ceil(minSeconds - (now.getTime() - reachedAt) / 1000));
}

function stepView(flow: FlowDefinition, state: FlowState, answers: Answers, now: Date): FlowStepView {
  const step = state.position.step;
  const text = (t: string) => pipeAnswers(t, flow, answers);
  if (!step) {
    // Completed: the end step of their pathway.
    const end = flow.steps.find((s) => s.type === 'end' && s.pathway === state.position.pathway);
    if (!end || end.type !== 'end') throw new Error(`the flow has no end step for "${state.position.pathway}"`);
    return endView(end, text, state.code ?? null);
  }
  switch (step.type) {
    case 'page':
      return {
        id: step.id,
        type: 'page',
        title: text(step.title),
        blocks: step.blocks.map((b) => pipedBlock(b, text)),
        button: step.button,
        consent: step.consent === true,
        remainingSeconds: remainingSeconds(step.minSeconds, state.facts.lastDoneAt, now),
      };
    case 'questions':
      return {
        id: step.id,
        type: 'questions',
        title: text(step.title),
        intro: step.intro ? text(step.intro) : null,
        questions: step.questions.map(({ check: _expected, ...q }) => ({
          ...q,
          text: text(q.text),
          ...(q.help !== undefined ? { help: text(q.help) } : {}),
        })),
        button: step.button,
      };
    case 'ai_text': {
      const record = state.facts.steps.find((r) => r.stepId === step.id);
      return {
        id: step.id,
        type: 'ai_text',
        title: text(step.title),
        instructions: text(step.instructions),
        allowCorrection: step.allowCorrection,
        maxChars: step.maxChars,
        confirmLabel: step.confirmLabel,
        generated: record?.data.generated ?? null,
      };
    }
    case 'randomise':
      return { id: step.id, type: 'randomise', title: 'Please wait' };
    case 'chat': {
      const arm = state.facts.records.condition ? step.arms[state.facts.records.condition] : undefined;
      if (!arm) throw new Error(`the chat step "${step.id}" has no arm for the participant's condition`);
      const { minMinutes, maxMinutes } = arm.completion;
      const since = state.facts.chat.startedAt ?? now.getTime();
      const left = (minutes: number | undefined) =>
        minutes === undefined ? null : remainingSeconds(minutes * 60, since, now);
      return {
        id: step.id,
        type: 'chat',
        title: text(step.title),
        intro: text(step.intro),
        completion: arm.completion,
        minSecondsLeft: left(minMinutes),
        maxSecondsLeft: left(maxMinutes),
        fallbackGreeting: text(arm.fallbackGreeting),
        threadId: state.facts.chat.threadId,
      };
    }
    case 'end':
      return endView(step, text, state.code ?? null);
    case 'reading': {
      const condition = state.facts.records.condition;
      const sections = condition ? (step.sections[condition] ?? []) : [];
      const index = state.position.currentSection ?? 0;
      const section = sections[index];
      if (!section) throw new Error(`the reading step "${step.id}" has no section ${index} for the condition`);
      const openedAt = state.facts.records.sections[index]?.openedAt ?? state.facts.lastDoneAt;
      return {
        id: step.id,
        type: 'reading',
        title: text(step.title),
        intro: index === 0 ? step.intro.map(text) : [],
        section: {
          index,
          count: sections.length,
          title: text(section.title),
          blocks: section.blocks.map((b) => pipedBlock(b, text)),
          remainingSeconds: remainingSeconds(sectionMinSeconds(section), openedAt, now),
        },
      };
    }
    case 'screen':
      // A screen is never where a participant stops (flowPosition moves past it).
      throw new Error(`a participant cannot be at a ${step.type} step of a flow`);
  }
}

function endView(
  end: Extract<FlowDefinition['steps'][number], { type: 'end' }>,
  text: (t: string) => string,
  code: string | null,
): FlowStepView {
  return {
    id: end.id,
    type: 'end',
    title: text(end.title),
    blocks: end.blocks.map((b) => pipedBlock(b, text)),
    pathway: end.pathway,
    code,
  };
}

/** The participant's flow view. */
export function toFlowView(experimentId: string, state: FlowState, now: Date): FlowView {
  const { flow } = state;
  const { records } = state.facts;
  const walk = stepsFor(flow, records.condition).filter((s) => s.type !== 'end' && s.type !== 'screen');
  const current = state.position.step;
  const index = current ? walk.findIndex((s) => s.id === current.id) : -1;
  return {
    experimentId,
    studyTitle: flow.title,
    texts: flow.texts,
    step: stepView(flow, state, records.answers, now),
    position: index >= 0 ? index + 1 : walk.length,
    total: walk.length,
    condition: records.condition,
    pathway: state.position.pathway,
    completed: records.completion !== null,
    serverTime: now.toISOString(),
  };
}
