import { describe, expect, it } from 'vitest';
import { studyDefinition } from './mmr-study.js';
import { MARKDOWN_MAX_CHARS, MARKDOWN_MAX_NESTING } from './markdown.js';
import { isSafeMarkdownUrl } from './markdown-url.js';
import { validateStudyDefinition } from './schema.js';
import type { ContentBlock } from './types.js';

const PATH = 'conditions.mmr.sections.0.blocks.0.markdown';

/** The MMR study with its first mmr section's body replaced by `blocks`. */
function withBlocks(blocks: ContentBlock[]) {
  const definition = structuredClone(studyDefinition);
  const [first] = definition.conditions.mmr.sections;
  if (!first) throw new Error('the MMR study has sections');
  first.blocks = blocks;
  return validateStudyDefinition(definition);
}

const problems = (markdown: string) => {
  const result = withBlocks([{ markdown }]);
  return result.ok ? [] : result.issues.map((issue) => [issue.path, issue.message]);
};

const GOOD = [
  '## Why sleep matters',
  '',
  'Children aged 6 to 12 need **9 to 12 hours** of sleep a night, and *teenagers* 8 to 10.',
  '',
  '- Same time every night.',
  '- No screens in the last hour.',
  '',
  '| Age | Hours |',
  '| --- | ---: |',
  '| 6-12 | 9-12 |',
  '',
  '> A calm routine helps.',
  '',
  'See [the guidance](https://example.org/sleep) or write to <team@example.org> and <mailto:team@example.org>.',
].join('\n');

describe('Markdown in a study', () => {
  it('accepts a Markdown block and keeps it word for word', () => {
    const result = withBlocks([{ markdown: GOOD }]);
    expect(result.ok).toBe(true);
    expect(result.ok && result.definition.conditions.mmr?.sections[0]?.blocks).toEqual([{ markdown: GOOD }]);
  });

  it('keeps the structured blocks of the MMR study and of stored versions as they are', () => {
    expect(validateStudyDefinition(structuredClone(studyDefinition))).toEqual({
      ok: true,
      definition: studyDefinition,
    });
  });

  it.each([
    ['a script element', 'Read this.\n\n<script>alert(1)</script>'],
    ['an inline script', 'Read <script>fetch("/api/admin/users")</script> this.'],
    ['an element with an event handler', '<img src="x" onerror="alert(1)">'],
    ['an inline tag', 'This is <b>bold</b>.'],
    ['an iframe', '<iframe src="https://example.org"></iframe>'],
    ['a comment', 'Text <!-- hidden --> more.'],
  ])('refuses raw HTML: %s', (_name, markdown) => {
    expect(problems(markdown)).toEqual([[PATH, expect.stringContaining('must not contain HTML')]]);
  });

  it.each([
    ['a javascript: link', '[click](javascript:alert(1))'],
    ['an upper-case one', '[click](JavaScript:alert(1))'],
    ['one written with an entity', '[click](javascript&#58;alert(1))'],
    ['one with a leading space', '[click]( javascript:alert(1))'],
    ['an autolink', '<javascript:alert(1)>'],
    ['a reference definition', '[click][x]\n\n[x]: javascript:alert(1)'],
    ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD4=)'],
    ['a vbscript: link', '[click](vbscript:msgbox)'],
    ['a relative link', '[admin](/admin/users)'],
    ['a protocol-relative link', '[x](//evil.example.org)'],
  ])('refuses an unsafe link: %s', (_name, markdown) => {
    expect(problems(markdown)).toEqual([[PATH, expect.stringContaining('links must be https://, http:// or mailto:')]]);
  });

  it.each([
    ['an image from elsewhere', '![tracker](https://evil.example.org/pixel.png)'],
    ['an image reference', '![tracker][p]\n\n[p]: https://evil.example.org/pixel.png'],
  ])('refuses %s', (_name, markdown) => {
    expect(problems(markdown)).toEqual([[PATH, 'must not contain images']]);
  });

  it('lists each kind of problem once', () => {
    expect(problems('<b>x</b> <i>y</i> [a](javascript:1) ![i](https://x.org/i.png)').map(([, m]) => m)).toEqual([
      expect.stringContaining('HTML'),
      expect.stringContaining('links'),
      'must not contain images',
    ]);
  });

  it('refuses a huge body and deep nesting without parsing them', () => {
    expect(problems('a'.repeat(MARKDOWN_MAX_CHARS + 1))).toEqual([[PATH, expect.stringContaining('10000')]]);
    expect(problems('a'.repeat(MARKDOWN_MAX_CHARS))).toEqual([]);
    const nested = `${'> '.repeat(MARKDOWN_MAX_NESTING + 1)}deep`;
    expect(problems(nested)).toEqual([[PATH, `must not nest quotes or lists more than ${MARKDOWN_MAX_NESTING} deep`]]);
    expect(problems('>'.repeat(MARKDOWN_MAX_CHARS))).toEqual([[PATH, expect.stringContaining('nest')]]);
    expect(problems('> - '.repeat(2_000))).toEqual([[PATH, expect.stringContaining('nest')]]);
    const indented = Array.from({ length: 20 }, (_, i) => `${' '.repeat(i * 4)}- level ${i}`).join('\n');
    expect(problems(indented)).toEqual([[PATH, expect.stringContaining('nest')]]);
    expect(problems(`${'> '.repeat(MARKDOWN_MAX_NESTING)}just deep enough`)).toEqual([]);
  });

  it('refuses an empty body, a control character and a Markdown block with other fields', () => {
    expect(problems('')).toEqual([[PATH, 'must not be empty']]);
    expect(problems('a\u0000b')).toEqual([[PATH, expect.stringContaining('control characters')]]);
    const result = withBlocks([{ heading: 'Why', markdown: 'Because.' }]);
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual([PATH]);
  });
});

describe('isSafeMarkdownUrl', () => {
  it('allows absolute web and mail addresses only', () => {
    for (const url of ['https://example.org', 'HTTP://example.org/a?b=c', 'mailto:team@example.org'])
      expect(isSafeMarkdownUrl(url)).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      '/admin',
      '//evil.org',
      'https://',
      '',
    ])
      expect(isSafeMarkdownUrl(url)).toBe(false);
  });
});
