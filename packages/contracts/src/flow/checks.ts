import type { StudyIssue } from '../study/types.js';
import { pipedKeys, ruleKeys, stepsFor } from './rules.js';
import type { ContentBlock } from '../study/types.js';
import type { Comparison, FlowDefinition, FlowQuestion, FlowStep, Rule } from './types.js';

// A flow's own rules, beyond its shape (flow/schema.ts): each problem with its path, so the editor shows it at
// its field. Zod-free: the browser's builder runs the same checks as the server.

type Path = (string | number)[];

class Issues {
  readonly list: StudyIssue[] = [];
  add(path: Path, message: string): void {
    this.list.push({ path: path.map(String).join('.'), message });
  }
}

/** Every text of a content block (for its pipes), with its path in the block (so an issue lands on its field). */
function blockTexts(block: ContentBlock): [Path, string][] {
  const table = block.table;
  return [
    ...(block.markdown !== undefined ? [[['markdown'], block.markdown] as [Path, string]] : []),
    ...(block.heading !== undefined ? [[['heading'], block.heading] as [Path, string]] : []),
    ...(block.paragraphs ?? []).map((text, i): [Path, string] => [['paragraphs', i], text]),
    ...(block.bullets ?? []).map((text, i): [Path, string] => [['bullets', i], text]),
    ...(table
      ? [
          [['table', 'caption'], table.caption] as [Path, string],
          ...table.columns.map((text, c): [Path, string] => [['table', 'columns', c], text]),
          ...table.rows.flatMap((row, r) => row.map((text, c): [Path, string] => [['table', 'rows', r, c], text])),
        ]
      : []),
  ];
}

/** The texts of a step that may pipe answers, with their paths. */
export function stepTexts(step: FlowStep): [Path, string][] {
  const blocks = (blocks: ContentBlock[]): [Path, string][] =>
    blocks.flatMap((block, b) => blockTexts(block).map(([at, text]): [Path, string] => [['blocks', b, ...at], text]));
  switch (step.type) {
    case 'page':
      return [[['title'], step.title], ...blocks(step.blocks)];
    case 'end':
      return [[['title'], step.title], ...blocks(step.blocks)];
    case 'questions':
      return [
        [['title'], step.title],
        [['intro'], step.intro ?? ''],
        ...step.questions.flatMap((q, i): [Path, string][] => [
          [['questions', i, 'text'], q.text],
          [['questions', i, 'help'], q.help ?? ''],
        ]),
      ];
    case 'reading':
      return [
        [['title'], step.title],
        ...step.intro.map((text, i): [Path, string] => [['intro', i], text]),
        ...Object.entries(step.sections).flatMap(([condition, sections]) =>
          sections.flatMap((section, s): [Path, string][] => [
            [['sections', condition, s, 'title'], section.title],
            ...section.blocks.flatMap((block, b) =>
              blockTexts(block).map(([at, text]): [Path, string] => [
                ['sections', condition, s, 'blocks', b, ...at],
                text,
              ]),
            ),
          ]),
        ),
      ];
    case 'chat':
      return [
        [['title'], step.title],
        [['intro'], step.intro],
        ...Object.entries(step.arms).flatMap(([condition, arm]): [Path, string][] => [
          [['arms', condition, 'systemPrompt'], arm.systemPrompt],
          [['arms', condition, 'openingInstruction'], arm.openingInstruction ?? ''],
        ]),
      ];
    case 'ai_text':
      return [
        [['title'], step.title],
        [['instructions'], step.instructions],
        [['prompt'], step.prompt],
      ];
    default:
      return [];
  }
}

function checkQuestion(q: FlowQuestion, path: Path, issues: Issues, pathways: Set<string>): void {
  if (q.type === 'single' || q.type === 'multiple') {
    const values = q.options.map((o) => o.value);
    values.forEach((v, i) => {
      if (values.indexOf(v) !== i) issues.add([...path, 'options', i, 'value'], 'option values must be unique');
    });
    if (q.type === 'multiple') {
      const min = q.minChoices ?? 0;
      const max = q.maxChoices ?? q.options.length;
      if (min > max) issues.add([...path, 'minChoices'], 'must not be more than the most choices');
      if (max > q.options.length) issues.add([...path, 'maxChoices'], 'must not be more than the options');
    }
  }
  if (q.type === 'likert' && Array.isArray(q.labels) && q.labels.length !== q.points) {
    issues.add([...path, 'labels'], `must have one label per point (${q.points}), or min and max`);
  }
  if (q.type === 'slider') {
    if (q.min >= q.max) issues.add([...path, 'max'], 'must be more than the minimum');
    else if ((q.max - q.min) / q.step > 1000) issues.add([...path, 'step'], 'must make at most 1000 steps');
  }
  if (q.type === 'number' && q.min !== undefined && q.max !== undefined && q.min > q.max) {
    issues.add([...path, 'max'], 'must not be less than the minimum');
  }
  if (q.type === 'text' && q.minChars > q.maxChars) {
    issues.add([...path, 'minChars'], 'must not be more than the most characters');
  }
  const check = q.check;
  if (!check) return;
  const at = [...path, 'check', 'expected'];
  if ('end' in check.onFail && !pathways.has(check.onFail.end)) {
    issues.add([...path, 'check', 'onFail', 'end'], `"${check.onFail.end}" is not one of the study's pathways`);
  }
  const { expected } = check;
  if (q.type === 'single') {
    if (typeof expected !== 'string' || !q.options.some((o) => o.value === expected))
      issues.add(at, 'must be one of the options');
  } else if (q.type === 'multiple') {
    if (!Array.isArray(expected) || !expected.every((v) => q.options.some((o) => o.value === v)))
      issues.add(at, 'must be a list of the options');
  } else if (q.type === 'text') {
    issues.add(at, 'a free-text answer cannot be checked');
  } else {
    const [min, max] = q.type === 'likert' ? [1, q.points] : [q.min ?? -Infinity, q.max ?? Infinity];
    if (typeof expected !== 'number' || expected < min || expected > max) issues.add(at, 'must be a possible answer');
  }
}

function checkComparison(c: Comparison, path: Path, known: Map<string, FlowQuestion | 'text'>, issues: Issues): void {
  if (!known.has(c.key)) {
    issues.add([...path, 'key'], `"${c.key}" is not an answer given before this step`);
    return;
  }
  const numeric = ['lt', 'lte', 'gt', 'gte'].includes(c.op);
  if (numeric && typeof c.value !== 'number') issues.add([...path, 'value'], 'must be a number');
  if (c.op === 'in' && !Array.isArray(c.value)) issues.add([...path, 'value'], 'must be a list');
  if ((c.op === 'eq' || c.op === 'ne' || c.op === 'includes') && (c.value === undefined || Array.isArray(c.value)))
    issues.add([...path, 'value'], 'must be one value');
}

function checkRule(rule: Rule, path: Path, known: Map<string, FlowQuestion | 'text'>, issues: Issues): void {
  if ('all' in rule) rule.all.forEach((r, i) => checkRule(r, [...path, 'all', i], known, issues));
  else if ('any' in rule) rule.any.forEach((r, i) => checkRule(r, [...path, 'any', i], known, issues));
  else checkComparison(rule, path, known, issues);
}

/** The problems of a well-shaped flow (empty when it can run). */
export function flowProblems(flow: FlowDefinition): StudyIssue[] {
  const issues = new Issues();
  const conditions = flow.conditions.map((c) => c.id);
  const pathways = new Set(flow.pathways.map((p) => p.key));
  flow.conditions.forEach((c, i) => {
    if (conditions.indexOf(c.id) !== i) issues.add(['conditions', i, 'id'], 'condition ids must be unique');
  });
  flow.pathways.forEach((p, i) => {
    if (flow.pathways.findIndex((q) => q.key === p.key) !== i)
      issues.add(['pathways', i, 'key'], 'pathway keys must be unique');
    if (p.codeKey && flow.pathways.findIndex((q) => q.codeKey === p.codeKey) !== i)
      issues.add(['pathways', i, 'codeKey'], 'code keys must be unique');
  });

  const ids = new Set<string>();
  const known = new Map<string, FlowQuestion | 'text'>();
  let randomised = false;
  const once = { randomise: 0, reading: 0, chat: 0, consent: 0 };
  const endOf = new Map<string, number>();

  flow.steps.forEach((step, index) => {
    const at: Path = ['steps', index];
    if (ids.has(step.id)) issues.add([...at, 'id'], 'step ids must be unique');
    ids.add(step.id);
    for (const [path, text] of stepTexts(step)) {
      for (const key of pipedKeys(text)) {
        if (!known.has(key)) issues.add([...at, ...path], `{{${key}}} is not an answer given before this step`);
      }
    }
    step.conditions?.forEach((c, i) => {
      if (!conditions.includes(c)) issues.add([...at, 'conditions', i], `"${c}" is not one of the study's conditions`);
    });
    const needsCondition = step.conditions !== undefined || step.type === 'reading' || step.type === 'chat';
    if (needsCondition && !randomised) {
      issues.add([...at, step.conditions ? 'conditions' : 'type'], 'must come after the randomise step');
    }
    const perCondition = (part: Record<string, unknown>, name: string) => {
      for (const c of Object.keys(part))
        if (!conditions.includes(c)) issues.add([...at, name, c], `"${c}" is not one of the study's conditions`);
    };

    switch (step.type) {
      case 'page':
        if (step.consent && ++once.consent > 1) issues.add([...at, 'consent'], 'a study has one consent page');
        break;
      case 'questions':
        step.questions.forEach((q, i) => {
          const path = [...at, 'questions', i];
          if (known.has(q.key)) issues.add([...path, 'key'], 'answer keys must be unique');
          checkQuestion(q, path, issues, pathways);
          known.set(q.key, q);
        });
        break;
      case 'ai_text':
        if (known.has(step.id)) issues.add([...at, 'id'], 'an AI text step id must not be an answer key');
        known.set(step.id, 'text');
        break;
      case 'reading':
        if (++once.reading > 1) issues.add([...at, 'type'], 'a study has at most one reading step');
        perCondition(step.sections, 'sections');
        break;
      case 'chat':
        if (++once.chat > 1) issues.add([...at, 'type'], 'a study has at most one chat step');
        perCondition(step.arms, 'arms');
        for (const [c, arm] of Object.entries(step.arms)) {
          const { minMinutes, maxMinutes } = arm.completion;
          if (minMinutes !== undefined && maxMinutes !== undefined && minMinutes > maxMinutes)
            issues.add([...at, 'arms', c, 'completion', 'minMinutes'], 'must not be more than the most minutes');
        }
        break;
      case 'randomise': {
        if (++once.randomise > 1) issues.add([...at, 'type'], 'a study has at most one randomise step');
        if (step.conditions) issues.add([...at, 'conditions'], 'the randomise step is for every participant');
        perCondition(step.weights, 'weights');
        for (const c of conditions)
          if (step.weights[c] === undefined)
            issues.add([...at, 'weights', c], 'missing: every condition needs a weight');
        const strata = step.strata;
        if (strata) {
          const q = known.get(strata.key);
          if (!q || q === 'text' || q.type === 'text' || q.type === 'multiple') {
            issues.add([...at, 'strata', 'key'], 'must be a choice, scale, slider or number answered before this step');
          } else {
            strata.bins.forEach((bin, b) => {
              const byValue = q.type === 'single';
              if (byValue && (!bin.values || bin.min !== undefined || bin.max !== undefined))
                issues.add([...at, 'strata', 'bins', b], 'must list the values of the choice it holds');
              if (!byValue && (bin.values || (bin.min === undefined && bin.max === undefined)))
                issues.add([...at, 'strata', 'bins', b], 'must give the lowest and highest answers it holds');
            });
          }
        }
        randomised = true;
        break;
      }
      case 'screen':
        checkRule(step.when, [...at, 'when'], known, issues);
        if (!pathways.has(step.pathway))
          issues.add([...at, 'pathway'], `"${step.pathway}" is not one of the study's pathways`);
        break;
      case 'end':
        if (step.conditions) issues.add([...at, 'conditions'], 'an end step is for every participant who reaches it');
        if (!pathways.has(step.pathway))
          issues.add([...at, 'pathway'], `"${step.pathway}" is not one of the study's pathways`);
        else if (endOf.has(step.pathway)) issues.add([...at, 'pathway'], 'a pathway has one end step');
        else endOf.set(step.pathway, index);
        break;
    }
  });

  if (conditions.length > 1 && once.randomise === 0) {
    issues.add(['steps'], 'a study with more than one condition needs a randomise step');
  }
  flow.steps.forEach((step, index) => {
    const ends = [
      ...(step.type === 'screen' ? [step.pathway] : []),
      ...(step.type === 'questions'
        ? step.questions.flatMap((q) => (q.check && 'end' in q.check.onFail ? [q.check.onFail.end] : []))
        : []),
    ];
    for (const pathway of ends)
      if (pathways.has(pathway) && !endOf.has(pathway))
        issues.add(['steps', index], `the pathway "${pathway}" has no end step`);
  });

  // Each condition walks the steps in order until its first end step: it must reach one, and nothing but
  // other pathways' end steps may follow it (they are reached only by a screen).
  const walks: (string | null)[] = conditions.length > 0 && once.randomise > 0 ? conditions : [null];
  for (const condition of walks) {
    const steps = stepsFor(flow, condition);
    const first = steps.findIndex((s) => s.type === 'end');
    const who = condition === null ? 'a participant' : `condition "${condition}"`;
    if (first === -1) {
      issues.add(['steps'], `${who} reaches no end step`);
      continue;
    }
    const stranded = steps.slice(first + 1).find((s) => s.type !== 'end');
    if (stranded) {
      issues.add(
        ['steps', flow.steps.indexOf(stranded)],
        `${who} never reaches this step: an end step comes before it`,
      );
    }
  }
  return issues.list;
}

/** Every key a step reads: pipes, rules, strata. */
export function stepReads(step: FlowStep): string[] {
  const keys = stepTexts(step).flatMap(([, text]) => pipedKeys(text));
  if (step.type === 'screen') keys.push(...ruleKeys(step.when));
  if (step.type === 'randomise' && step.strata) keys.push(step.strata.key);
  return [...new Set(keys)];
}
