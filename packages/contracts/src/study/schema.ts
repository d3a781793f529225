import { z } from 'zod';
import { FreeText, LineText } from '../text.js';
import { TABLE_MAX_COLUMNS, type ContentBlock, type StudyDefinition, type StudyIssue } from './types.js';
import { MARKDOWN_MAX_CHARS, markdownProblems } from './markdown.js';
import { MMR_BASELINE_KEY, MMR_ENTRY_KEY, MMR_ENTRY_VALUES, MMR_POST_KEY } from './mmr-study.keys.js';
import { mmrPreSurvey } from './mmr-study.survey.js';
import { withReminder } from './entry-reminder.js';
import { builtInConditionList } from './mmr-study.conditions.js';
import { CONDITION_ID_PATTERN, MAX_CONDITIONS } from '../constants.js';

// The study definition as data (issue 14): a researcher edits it in the admin study editor and the server
// stores it as a study version. Every text is plain text (never HTML): the web app renders headings,
// paragraphs, bullets and tables as React text, so a definition cannot inject markup. A block may instead
// be Markdown, checked here and rendered without HTML, images or unsafe links (docs/decisions/0052).

const Line = (max: number) => LineText.trim().min(1, 'must not be empty').max(max);
const Text = (max: number) => FreeText.min(1, 'must not be empty').max(max);

const Heading = Line(200);
const Paragraph = Text(5_000);

const Markdown = Text(MARKDOWN_MAX_CHARS).superRefine((text, ctx) => {
  for (const message of markdownProblems(text)) ctx.addIssue({ code: 'custom', message });
});

export const ContentBlockSchema = z
  .object({
    markdown: Markdown.optional(),
    heading: Heading.optional(),
    paragraphs: z.array(Paragraph).max(50).optional(),
    bullets: z.array(Paragraph).max(50).optional(),
    table: z
      .object({
        caption: Line(500),
        columns: z.array(Line(200)).min(1, 'a table needs at least one column').max(TABLE_MAX_COLUMNS),
        rows: z.array(z.array(Line(500))).max(50),
      })
      .strict()
      .superRefine((table, ctx) => {
        table.rows.forEach((row, r) => {
          if (row.length !== table.columns.length)
            ctx.addIssue({
              code: 'custom',
              path: ['rows', r],
              message: `must have one cell per column (${table.columns.length})`,
            });
        });
      })
      .optional(),
  })
  .strict()
  .superRefine((block, ctx) => {
    if (block.markdown !== undefined && Object.keys(block).length > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['markdown'],
        message: 'a Markdown block has nothing else (write the heading, paragraphs, bullets or table in the Markdown)',
      });
  });

export const StaticSectionSchema = z
  .object({
    id: LineText.regex(/^[a-z0-9][a-z0-9-]{0,49}$/, 'must be 1-50 lower-case letters, digits or dashes'),
    title: Line(200),
    minSeconds: z.number().int('must be a whole number').min(1, 'must be 1 to 3600').max(3600, 'must be 1 to 3600'),
    blocks: z.array(ContentBlockSchema).min(1, 'a section needs at least one block').max(50),
  })
  .strict();

const ConditionContentSchema = z
  .object({
    topic: Line(200),
    sections: z.array(StaticSectionSchema).min(1, 'a condition needs at least one section').max(20),
  })
  .strict()
  .superRefine((content, ctx) => {
    const seen = new Set<string>();
    content.sections.forEach((section, index) => {
      if (seen.has(section.id)) {
        ctx.addIssue({ code: 'custom', path: ['sections', index, 'id'], message: 'section ids must be unique' });
      }
      seen.add(section.id);
    });
  });

/** USD per million tokens; strict, so a kind of token not counted is refused, not ignored. */
const PricePerMTok = z
  .number()
  .min(0, 'must be 0 or more')
  .max(10_000, 'must be at most 10,000 (USD per million tokens)');
export const ModelPriceSchema = z
  .object({
    inputPerMTok: PricePerMTok,
    outputPerMTok: PricePerMTok,
    cacheWritePerMTok: PricePerMTok.optional(),
    cacheReadPerMTok: PricePerMTok.optional(),
  })
  .strict();

export const ChatModelSettingsSchema = z
  .object({
    model: LineText.regex(
      /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/,
      'must be a model name such as claude-sonnet-4-5',
    ).optional(),
    fallbackModel: LineText.regex(
      /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/,
      'must be a model name such as claude-haiku-4-5',
    ).optional(),
    temperature: z.number().min(0, 'must be 0 to 2').max(2, 'must be 0 to 2').optional(),
    replyTokens: z.number().int('must be a whole number').min(16).max(64_000).optional(),
    thinkingBudget: z
      .number()
      .int('must be a whole number')
      .min(0)
      .max(64_000)
      .refine((n) => n === 0 || n >= 1024, 'must be 0 (no thinking) or at least 1024')
      .optional(),
    price: ModelPriceSchema.optional(),
  })
  .strict();

const ConditionChatSchema = z
  .object({
    systemPrompt: Text(20_000),
    scripted: z
      .object({ opening: Text(5_000), replies: z.array(Text(5_000)).min(1).max(50), closing: Text(5_000) })
      .strict(),
    settings: ChatModelSettingsSchema.optional(),
  })
  .strict();

/** An answer key: the key under which an answer is stored (and exported). */
const AnswerKey = LineText.regex(/^[a-z][a-z0-9_]{0,49}$/, 'must be 1-50 lower-case letters, digits or _');
const AnswerValue = LineText.regex(/^[A-Za-z0-9][A-Za-z0-9_+.-]{0,49}$/, 'must be 1-50 letters, digits, _ + . or -');
const ScaleLabels = z.object({ min: Line(100), mid: Line(100), max: Line(100) }).strict();

export const SurveyQuestionSchema = z
  .object({
    key: AnswerKey,
    wording: Text(1_000),
    type: z.enum(['choice', 'scale']),
    options: z
      .array(z.object({ value: AnswerValue, label: Line(200) }).strict())
      .min(2, 'a choice needs at least two options')
      .max(20)
      .optional(),
    labels: ScaleLabels.optional(),
    required: z.boolean(),
  })
  .strict()
  .superRefine((question, ctx) => {
    if (question.type === 'choice' && !question.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'a choice question needs options' });
    if (question.type === 'scale' && !question.labels)
      ctx.addIssue({ code: 'custom', path: ['labels'], message: 'a scale question needs labels' });
    const values = new Set<string>();
    question.options?.forEach((option, index) => {
      if (values.has(option.value))
        ctx.addIssue({ code: 'custom', path: ['options', index, 'value'], message: 'option values must be unique' });
      values.add(option.value);
    });
  });

const PreSurveySchema = z
  .object({
    title: Line(200),
    intro: Text(2_000),
    questions: z.array(SurveyQuestionSchema).min(1, 'the pre-study survey needs a question').max(30),
  })
  .strict()
  .superRefine((pre, ctx) => {
    const keys = new Set<string>();
    pre.questions.forEach((question, index) => {
      if (keys.has(question.key))
        ctx.addIssue({ code: 'custom', path: ['questions', index, 'key'], message: 'answer keys must be unique' });
      keys.add(question.key);
    });
  });

/** Per-condition parts are keyed by condition id; that the keys are exactly the declared ones is checked below. */
const ConditionKey = LineText.regex(
  CONDITION_ID_PATTERN,
  'must be 1-20 lower-case letters, digits or _, from a letter',
);
const perCondition = <T extends z.ZodType>(schema: T) => z.record(ConditionKey, schema);

/** The declared conditions (docs/decisions/0061): 2 to 6, ids unique. */
export const ConditionListSchema = z
  .array(z.object({ id: ConditionKey, label: Line(100) }).strict())
  .min(2, 'a study needs at least two conditions')
  .max(MAX_CONDITIONS, `a study has at most ${MAX_CONDITIONS} conditions`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((condition, index) => {
      if (seen.has(condition.id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'condition ids must be unique' });
      seen.add(condition.id);
    });
  });

/** A condition's completion rule (docs/decisions/0049); each part absent is the spec's (3 rounds, 100 points). */
const ChatRuleSchema = z
  .object({
    rounds: z.number().int('must be a whole number').min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
    points: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be 0 to 10000')
      .max(10_000, 'must be 0 to 10000')
      .optional(),
  })
  .strict();

/** The completion rules, per condition (each optional). */
export const ChatCompletionSchema = z.record(ConditionKey, ChatRuleSchema);

/** A pathway's label and description (docs/decisions/0056). */
const PathwayTextSchema = z.object({ label: Line(100), description: Text(1_000) }).strict();

/** The study's words for its pathways: only the journey's three (an unknown pathway is refused). */
export const StudyPathwaysSchema = z
  .object({
    complete: PathwayTextSchema.optional(),
    confirm: PathwayTextSchema.optional(),
    ceiling: PathwayTextSchema.optional(),
  })
  .strict();

/** A study definition's fields, without the cross-field check of the condition keys (for `.omit` and `.shape`). */
export const StudyDefinitionFields = z
  .object({
    id: LineText.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1-64 lower-case letters, digits or dashes'),
    title: Line(200),
    consent: z
      .object({ title: Line(200), blocks: z.array(ContentBlockSchema).min(1).max(50), contact: Text(5_000) })
      .strict(),
    entry: z
      .object({
        title: Line(200),
        scenario: z.array(Paragraph).min(1).max(20),
        questionsLabel: Line(300),
        confirmLabel: Line(300),
        // Absent in versions stored before the keys were data: the MMR study's (docs/decisions/0033).
        key: AnswerKey.default(MMR_ENTRY_KEY),
        values: z
          .object({ continue: AnswerValue, exit: AnswerValue })
          .strict()
          .refine((v) => v.continue !== v.exit, { message: 'the two values must differ', path: ['exit'] })
          .default(() => ({ ...MMR_ENTRY_VALUES })),
        // Absent in definitions written before it was a field: the scenario's second paragraph (0062).
        reminder: Paragraph.optional(),
      })
      .strict()
      .transform((entry, ctx) => {
        const upgraded = withReminder(entry);
        if (upgraded) return upgraded;
        ctx.addIssue({ code: 'custom', path: ['reminder'], message: 'must not be empty' });
        return z.NEVER;
      }),
    baseline: z
      .object({
        question: Text(1_000),
        labels: ScaleLabels,
        key: AnswerKey.default(MMR_BASELINE_KEY),
      })
      .strict(),
    pages: z
      .object({
        staticIntro: z
          .object({ title: Line(200), paragraphs: z.array(Paragraph).min(1).max(10) })
          .strict()
          .optional(),
        completion: z
          .object({ thanks: Text(1_000), instructions: Text(2_000) })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    pre: PreSurveySchema.default(() => structuredClone(mmrPreSurvey)),
    // The post key is absent in versions stored before it was data: the MMR study's (docs/decisions/0047).
    post: z.object({ title: Line(200), question: Text(1_000), key: AnswerKey.default(MMR_POST_KEY) }).strict(),
    // Absent in versions stored before conditions were data: the MMR study's two (docs/decisions/0061).
    conditionList: ConditionListSchema.default(() => builtInConditionList()),
    conditions: perCondition(ConditionContentSchema),
    pathways: StudyPathwaysSchema.optional(),
    chat: z
      .object({
        conditions: perCondition(ConditionChatSchema),
        fallbackGreetings: perCondition(Text(2_000)),
        completion: ChatCompletionSchema.optional(),
      })
      .strict(),
  })
  .strict();

/** The zod schema of a whole study definition (the `StudyDefinition` type, checked at run time). */
export const StudyDefinitionSchema = StudyDefinitionFields
  // Runs even when other parts have problems (the editor lists every problem at once), so it reads the value
  // loosely: a part that is not an object, or a list that is not valid, is reported by its own schema.
  .superRefine(
    (definition, ctx) => {
      const loose = definition as unknown as { conditionList?: unknown; conditions?: unknown; chat?: unknown };
      if (!Array.isArray(loose.conditionList)) return;
      const declared = loose.conditionList
        .map((c: unknown) => (isObject(c) ? c.id : undefined))
        .filter((id): id is string => typeof id === 'string');
      const chat = isObject(loose.chat) ? loose.chat : {};
      const parts: [string[], unknown, boolean][] = [
        [['conditions'], loose.conditions, true],
        [['chat', 'conditions'], chat.conditions, true],
        [['chat', 'fallbackGreetings'], chat.fallbackGreetings, true],
        [['chat', 'completion'], chat.completion, false],
      ];
      for (const [path, part, required] of parts) {
        if (!isObject(part)) continue;
        for (const problem of conditionKeyProblems(declared, Object.keys(part), required))
          ctx.addIssue({ code: 'custom', path: [...path, problem.key], message: problem.message });
      }
    },
    { when: (payload) => isObject(payload.value) },
  );

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A per-condition part's keys against the declared ids: each unknown key, and each missing one if required. */
export function conditionKeyProblems(
  declared: readonly string[],
  keys: readonly string[],
  required: boolean,
): { key: string; message: string }[] {
  const problems = keys
    .filter((key) => !declared.includes(key))
    .map((key) => ({ key, message: `"${key}" is not one of the study's conditions (conditionList)` }));
  if (required)
    for (const id of declared)
      if (!keys.includes(id)) problems.push({ key: id, message: `missing: every condition needs this part` });
  return problems;
}

// The schema and the zod-free types the web app uses describe the same thing (checked when compiling).
type Parsed = z.infer<typeof StudyDefinitionSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesTypes: Same<Parsed, StudyDefinition> & Same<z.infer<typeof ContentBlockSchema>, ContentBlock> = true;
void schemaMatchesTypes;

/** Checks a definition; the problems are listed with their paths (the admin editor shows them inline). */
export function validateStudyDefinition(
  value: unknown,
): { ok: true; definition: StudyDefinition } | { ok: false; issues: StudyIssue[] } {
  const parsed = StudyDefinitionSchema.safeParse(value);
  if (parsed.success) return { ok: true, definition: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  };
}
