import { chatRuleFor } from '../chat-progress.js';
import { LIKERT_MAX, PATHWAY_CODE_KEY, PATHWAYS, STRATA } from '../constants.js';
import { studyPathways } from '../study/pathways.js';
import type { ContentBlock, StudyDefinition, SurveyQuestion } from '../study/types.js';
import type { FlowDefinition, FlowQuestion, FlowStep } from './types.js';

// The built-in study's shape (consent, entry choice, 1-7 baseline, pre-survey, randomisation, timed reading, chat,
// one 1-7 post question) as a flow (docs/decisions/0075). Study versions written in that shape (the built-in MMR
// study, and every version made with the form editor) run as this flow; their steps keep the spec's routes and
// pages. A study in another shape is a flow definition of its own.

/** The welcome page's line, the spec's (section 2). */
export const SPEC_WELCOME = 'A research tool for medical communication';
/** The footer's disclaimer on every study page of the built-in study (spec section 1). */
export const SPEC_DISCLAIMER =
  'This study is for research purposes only and does not provide medical advice. Please talk to a doctor or other qualified health professional about any health questions.';

/** The step ids of the built-in shape: its questions steps' ids are the spec's survey types. */
export const LEGACY_STEP = {
  consent: 'consent',
  entry: 'entry',
  entryScreen: 'entry_exit',
  baseline: 'baseline',
  baselineScreen: 'baseline_ceiling',
  pre: 'pre',
  randomise: 'assignment',
  reading: 'sections',
  chat: 'chat',
  post: 'post',
} as const;

const paragraphs = (texts: string[]): ContentBlock[] => (texts.length > 0 ? [{ paragraphs: texts }] : []);

function preQuestion(q: SurveyQuestion): FlowQuestion {
  if (q.type === 'scale') {
    const labels = q.labels ?? { min: '1', mid: '4', max: '7' };
    return { key: q.key, text: q.wording, required: q.required, type: 'likert', points: LIKERT_MAX, labels };
  }
  return { key: q.key, text: q.wording, required: q.required, type: 'single', options: q.options ?? [] };
}

/** A study version in the built-in shape, as the flow the server runs. */
export function flowOfLegacy(study: StudyDefinition): FlowDefinition {
  const conditions = study.conditionList.map((c) => c.id);
  const pathwayText = studyPathways(study);
  const steps: FlowStep[] = [
    {
      id: LEGACY_STEP.consent,
      type: 'page',
      title: study.consent.title,
      blocks: [...study.consent.blocks, { heading: 'Contact and agreement', paragraphs: [study.consent.contact] }],
      button: 'I Consent',
      consent: true,
    },
    {
      id: LEGACY_STEP.entry,
      type: 'questions',
      title: study.entry.title,
      intro: [...study.entry.scenario, study.entry.reminder].filter((t) => t.trim() !== '').join('\n\n'),
      button: 'Continue',
      questions: [
        {
          key: study.entry.key,
          text: study.entry.title,
          required: true,
          type: 'single',
          options: [
            { value: study.entry.values.continue, label: study.entry.questionsLabel },
            { value: study.entry.values.exit, label: study.entry.confirmLabel },
          ],
        },
      ],
    },
    {
      id: LEGACY_STEP.entryScreen,
      type: 'screen',
      when: { key: study.entry.key, op: 'eq', value: study.entry.values.exit },
      pathway: 'confirm',
    },
    {
      id: LEGACY_STEP.baseline,
      type: 'questions',
      title: study.entry.title,
      button: 'Continue',
      questions: [
        {
          key: study.baseline.key,
          text: study.baseline.question,
          required: true,
          type: 'likert',
          points: LIKERT_MAX,
          labels: study.baseline.labels,
        },
      ],
    },
    {
      id: LEGACY_STEP.baselineScreen,
      type: 'screen',
      when: { key: study.baseline.key, op: 'eq', value: LIKERT_MAX },
      pathway: 'ceiling',
    },
    {
      id: LEGACY_STEP.pre,
      type: 'questions',
      title: study.pre.title,
      intro: study.pre.intro,
      button: 'Submit Survey',
      questions: study.pre.questions.map(preQuestion),
    },
    {
      id: LEGACY_STEP.randomise,
      type: 'randomise',
      weights: Object.fromEntries(conditions.map((c) => [c, 1])),
      strata: {
        key: study.baseline.key,
        bins: STRATA.map((label) => {
          const [min, max] = label.split('-').map(Number);
          return { label, min: min ?? 1, max: max ?? 6 };
        }),
      },
    },
    {
      id: LEGACY_STEP.reading,
      type: 'reading',
      title: study.pages?.staticIntro?.title ?? 'Information',
      intro: study.pages?.staticIntro?.paragraphs ?? [],
      sections: Object.fromEntries(conditions.map((c) => [c, study.conditions[c]?.sections ?? []])),
    },
    {
      id: LEGACY_STEP.chat,
      type: 'chat',
      title: 'Chat with the AI assistant',
      intro: 'Start a conversation with the AI assistant.',
      arms: Object.fromEntries(
        conditions.map((c) => {
          const chat = study.chat.conditions[c];
          const rule = chatRuleFor(study.chat.completion, c);
          return [
            c,
            {
              ...(chat?.settings ? { model: chat.settings } : {}),
              systemPrompt: chat?.systemPrompt ?? '',
              fallbackGreeting: study.chat.fallbackGreetings[c] ?? '',
              completion: rule,
              scripted: chat?.scripted ?? { opening: '', replies: [''], closing: '' },
            },
          ];
        }),
      ),
    },
    {
      id: LEGACY_STEP.post,
      type: 'questions',
      title: study.post.title,
      button: 'Finish',
      questions: [
        {
          key: study.post.key,
          text: study.post.question,
          required: true,
          type: 'likert',
          points: LIKERT_MAX,
          labels: study.baseline.labels,
        },
      ],
    },
    ...PATHWAYS.map((pathway): FlowStep => ({
      id: `end_${pathway}`,
      type: 'end',
      pathway,
      title: 'Study Complete!',
      blocks: paragraphs(study.pages?.completion ? [study.pages.completion.thanks] : []),
    })),
  ];
  return {
    format: 'flow',
    id: study.id,
    title: study.title,
    texts: { welcome: SPEC_WELCOME, disclaimer: SPEC_DISCLAIMER },
    conditions: study.conditionList,
    pathways: pathwayText.map((p) => ({
      key: p.pathway,
      label: p.label,
      description: p.description,
      codeKey: PATHWAY_CODE_KEY[p.pathway],
    })),
    steps,
  };
}
