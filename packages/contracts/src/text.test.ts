import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';
import { collectRoutes } from './route.js';
import { FREE_TEXT_PATTERN, FreeText, LINE_TEXT_PATTERN, LineText } from './text.js';

const controls = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
];

describe('LineText', () => {
  it('refuses NUL and every other control character, anywhere in the text', () => {
    for (const c of controls) {
      for (const text of [c, `a${c}`, `${c}a`, `ab${c}cd`]) {
        expect(LineText.safeParse(text).success, JSON.stringify(text)).toBe(false);
      }
    }
  });

  it('refuses broken UTF-16 (lone surrogates) and accepts well-formed text in any script', () => {
    for (const text of ['\ud800', 'a\udc00', '\ude00\ud83d']) expect(LineText.safeParse(text).success).toBe(false);
    for (const text of ['', 'Prolific 5f1a', 'Zoë Ünal', 'Привет', '研究', '😀 ok', '\u00a0\u00ff\u2028x']) {
      expect(LineText.parse(text)).toBe(text);
    }
  });

  it('keeps the rules chained after it', () => {
    const Field = LineText.trim().min(1).max(5);
    expect(Field.parse('  ab ')).toBe('ab');
    expect(Field.safeParse('   ').success).toBe(false);
    expect(Field.safeParse('abcdef').success).toBe(false);
    expect(Field.safeParse('a\u0000').success).toBe(false);
  });
});

describe('FreeText', () => {
  it('allows tab and line breaks, storing CRLF and CR as LF', () => {
    expect(FreeText.parse('a\tb\nc')).toBe('a\tb\nc');
    expect(FreeText.parse('one\r\ntwo\rthree')).toBe('one\ntwo\nthree');
  });

  it('refuses NUL and the other control characters', () => {
    for (const c of controls.filter((c) => !'\t\n\r'.includes(c))) {
      expect(FreeText.safeParse(`text ${c} here`).success, JSON.stringify(c)).toBe(false);
    }
    expect(FreeText.safeParse('a\ud800b').success).toBe(false);
  });
});

/** Every string node of a JSON Schema, with its path. */
function stringNodes(node: unknown, path: string, out: { path: string; node: Record<string, unknown> }[]): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => stringNodes(child, `${path}[${i}]`, out));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.type === 'string') out.push({ path, node: record });
  for (const [key, child] of Object.entries(record)) stringNodes(child, `${path}.${key}`, out);
}

const SAFE_PATTERNS = [LINE_TEXT_PATTERN.source, FREE_TEXT_PATTERN.source];

/** A string field is safe when it can only hold an enum value, a UUID, or text under one of the two rules. */
function isSafeString(node: Record<string, unknown>): boolean {
  if (node.enum !== undefined || node.const !== undefined || node.format === 'uuid') return true;
  const patterns = [node.pattern, ...(Array.isArray(node.allOf) ? node.allOf : []).map((p) => p?.pattern)];
  return patterns.some((p) => typeof p === 'string' && SAFE_PATTERNS.includes(p));
}

describe('every text field of every route', () => {
  const routes = collectRoutes(contracts);

  it('finds the route objects of every group', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map((r) => r.name)).toContain('authRoutes.login');
  });

  it('uses LineText or FreeText (or is an enum or a UUID) in body, query and params', () => {
    const unsafe: string[] = [];
    for (const { name, def } of routes) {
      for (const part of ['body', 'query', 'params'] as const) {
        const schema = def[part];
        if (!schema) continue;
        const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
        const nodes: { path: string; node: Record<string, unknown> }[] = [];
        stringNodes(json, `${name}.${part}`, nodes);
        for (const { path, node } of nodes) if (!isSafeString(node)) unsafe.push(path);
      }
    }
    expect(unsafe).toEqual([]);
  });
});
