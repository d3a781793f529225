import { z } from 'zod';
import { CONDITION_ID_PATTERN, MAX_CONDITIONS } from '../constants.js';
import { FreeText, LineText } from '../text.js';
import { ChatModelSettingsSchema, ContentBlockSchema, StaticSectionSchema } from '../study/schema.js';
import type { StudyIssue } from '../study/types.js';
import { flowProblems } from './checks.js';
import type { FlowDefinition, Rule } from './types.js';

// The zod schema of a flow definition (its shape), then the flow's own rules (flow/checks.ts: ids, keys, pipes,
// pathways, conditions, every condition reaching an end), so the editor lists every problem with its path.

const Line = (max: number) => LineText.trim().min(1, 'must not be empty').max(max);
const Text = (max: number) => FreeText.min(1, 'must not be empty').max(max);

export const FLOW_ID = /^[a-z][a-z0-9_]{0,49}$/;
const StepId = LineText.regex(FLOW_ID, 'must be 1-50 lower-case letters, digits or _, from a letter');
const Key = LineText.regex(FLOW_ID, 'must be 1-50 lower-case letters, digits or _, from a letter');
const PathwayKey = LineText.regex(/^[a-z][a-z0-9_]{0,29}$/, 'must be 1-30 lower-case letters, digits or _');
const ConditionId = LineText.regex(CONDITION_ID_PATTERN, 'must be 1-20 lower-case letters, digits or _');
const OptionValue = LineText.regex(/^[A-Za-z0-9][A-Za-z0-9_+.-]{0,49}$/, 'must be 1-50 letters, digits, _ + . or -');
const Num = z.number().finite('must be a number');

const Model = ChatModelSettingsSchema.extend({ provider: z.enum(['anthropic', 'openai', 'scripted']).optional() });
const Option = z.object({ value: OptionValue, label: Line(300) }).strict();
const Ends = z.object({ min: Line(100), max: Line(100), mid: Line(100).optional() }).strict();

const Check = z
  .object({
    expected: z.union([OptionValue, Num, z.array(OptionValue).min(1).max(50)]),
    onFail: z.union([z.object({ end: PathwayKey }).strict(), z.object({ flag: z.literal(true) }).strict()]),
  })
  .strict();

const questionBase = {
  key: Key,
  text: Text(2_000),
  help: Text(1_000).optional(),
  required: z.boolean(),
  check: Check.optional(),
};

export const FlowQuestionSchema = z.discriminatedUnion('type', [
  z.object({ ...questionBase, type: z.literal('single'), options: z.array(Option).min(2).max(30) }).strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('multiple'),
      options: z.array(Option).min(2).max(30),
      minChoices: z.number().int().min(0).max(30).optional(),
      maxChoices: z.number().int().min(1).max(30).optional(),
    })
    .strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('likert'),
      points: z.number().int('must be a whole number').min(2, 'must be 2 to 11').max(11, 'must be 2 to 11'),
      labels: z.union([Ends, z.array(Line(100)).min(2).max(11)]),
    })
    .strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('slider'),
      min: Num,
      max: Num,
      step: Num.positive('must be more than 0'),
      anchors: Ends,
    })
    .strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('number'),
      min: Num.optional(),
      max: Num.optional(),
      integer: z.boolean(),
    })
    .strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('text'),
      minChars: z.number().int().min(0).max(10_000),
      maxChars: z.number().int().min(1).max(10_000),
      multiline: z.boolean(),
    })
    .strict(),
]);

const ComparisonSchema = z
  .object({
    key: Key,
    op: z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'includes', 'answered']),
    value: z
      .union([
        Line(200),
        Num,
        z
          .array(z.union([Line(200), Num]))
          .min(1)
          .max(100),
      ])
      .optional(),
  })
  .strict();
export const RuleSchema: z.ZodType<Rule> = z.lazy(() =>
  z.union([
    ComparisonSchema,
    z.object({ all: z.array(RuleSchema).min(1, 'must hold at least one comparison').max(20) }).strict(),
    z.object({ any: z.array(RuleSchema).min(1, 'must hold at least one comparison').max(20) }).strict(),
  ]),
);

const base = { id: StepId, conditions: z.array(ConditionId).min(1).max(MAX_CONDITIONS).optional() };
const Blocks = z.array(ContentBlockSchema).min(1).max(50);

const ChatArm = z
  .object({
    model: Model.optional(),
    systemPrompt: Text(20_000),
    openingInstruction: Text(2_000).optional(),
    fallbackGreeting: Text(2_000),
    completion: z
      .object({
        rounds: z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100'),
        points: z.number().int().min(0, 'must be 0 to 10000').max(10_000, 'must be 0 to 10000'),
        minMinutes: z.number().min(0).max(240).optional(),
        maxMinutes: z.number().min(1).max(240).optional(),
      })
      .strict(),
    scripted: z
      .object({ opening: Text(5_000), replies: z.array(Text(5_000)).min(1).max(50), closing: Text(5_000) })
      .strict(),
  })
  .strict();

export const FlowStepSchema = z.discriminatedUnion('type', [
  z
    .object({
      ...base,
      type: z.literal('page'),
      title: Line(200),
      blocks: Blocks,
      button: Line(60),
      minSeconds: z.number().int().min(1).max(3600).optional(),
      consent: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('questions'),
      title: Line(200),
      intro: Text(5_000).optional(),
      questions: z.array(FlowQuestionSchema).min(1, 'a questions step needs a question').max(50),
      button: Line(60),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('reading'),
      title: Line(200),
      intro: z.array(Text(5_000)).max(10),
      sections: z.record(
        ConditionId,
        z.array(StaticSectionSchema).min(1, 'a condition that reads needs at least one section').max(20),
      ),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('chat'),
      title: Line(200),
      intro: Text(5_000),
      arms: z.record(ConditionId, ChatArm),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('ai_text'),
      title: Line(200),
      instructions: Text(5_000),
      prompt: Text(20_000),
      model: Model.optional(),
      allowCorrection: z.boolean(),
      maxChars: z.number().int().min(20).max(10_000),
      confirmLabel: Line(60),
      scripted: Text(5_000),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('randomise'),
      weights: z.record(ConditionId, z.number().int('must be a whole number').min(1).max(20)),
      strata: z
        .object({
          key: Key,
          bins: z
            .array(
              z
                .object({
                  label: Line(60),
                  values: z.array(OptionValue).min(1).max(50).optional(),
                  min: Num.optional(),
                  max: Num.optional(),
                })
                .strict(),
            )
            .min(1)
            .max(20),
        })
        .strict()
        .optional(),
    })
    .strict(),
  z.object({ ...base, type: z.literal('screen'), when: RuleSchema, pathway: PathwayKey }).strict(),
  z
    .object({
      ...base,
      type: z.literal('end'),
      pathway: PathwayKey,
      title: Line(200),
      blocks: z.array(ContentBlockSchema).max(50),
    })
    .strict(),
]);

export const FlowDefinitionShape = z
  .object({
    format: z.literal('flow'),
    id: Line(100),
    title: Line(200),
    texts: z.object({ welcome: Text(1_000), disclaimer: Text(1_000) }).strict(),
    conditions: z
      .array(z.object({ id: ConditionId, label: Line(100) }).strict())
      .min(1, 'a study needs at least one condition')
      .max(MAX_CONDITIONS, `a study has at most ${MAX_CONDITIONS} conditions`),
    pathways: z
      .array(
        z
          .object({
            key: PathwayKey,
            label: Line(100),
            description: Text(1_000).optional(),
            codeKey: LineText.regex(/^[a-z][a-z0-9_]{0,29}$/).optional(),
          })
          .strict(),
      )
      .min(1, 'a study needs at least one pathway')
      .max(20),
    steps: z.array(FlowStepSchema).min(1).max(100),
  })
  .strict();

// The schema and the zod-free types describe the same thing (checked when compiling).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesTypes: Same<z.infer<typeof FlowDefinitionShape>, FlowDefinition> = true;
void schemaMatchesTypes;

/** Checks a flow definition: its shape, then its own rules; every problem with its path. */
export function validateFlowDefinition(
  value: unknown,
): { ok: true; definition: FlowDefinition } | { ok: false; issues: StudyIssue[] } {
  const parsed = FlowDefinitionShape.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    };
  }
  const issues = flowProblems(parsed.data);
  return issues.length === 0 ? { ok: true, definition: parsed.data } : { ok: false, issues };
}
