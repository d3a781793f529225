import fc from 'fast-check';
import { z } from 'zod';
import { FREE_TEXT_PATTERN, LINE_TEXT_PATTERN } from '@studychat/contracts';

// fast-check arbitraries derived from a route's zod schema (through its JSON Schema), so every route in
// the contracts is fuzzed without anyone writing a generator for it. Two modes:
// - 'valid' keeps to the schema's shapes, enums, bounds and known ids, so requests get past validation
//   and reach the services and the database;
// - 'hostile' mixes into every field control characters, broken UTF-16, out-of-range numbers, wrong
//   types and missing keys.

type JsonSchema = Record<string, unknown>;

export interface FuzzPools {
  /** Ids that exist, by kind, so valid-mode requests find real rows; a field named after a kind gets those. */
  ids: { experiment: readonly string[]; user: readonly string[]; thread: readonly string[] };
  /** Emails that exist, for login bodies. */
  emails: readonly string[];
}

/** The ids for a field: by its name (experimentId, user_id, threadId), else any known id. */
function idsFor(key: string, pools: FuzzPools): readonly string[] {
  for (const kind of ['experiment', 'user', 'thread'] as const) {
    if (key.toLowerCase().includes(kind) && pools.ids[kind].length > 0) return pools.ids[kind];
  }
  return [...pools.ids.experiment, ...pools.ids.user, ...pools.ids.thread];
}

export type FuzzMode = 'valid' | 'hostile';

/** The input JSON Schema of a zod schema. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[2J',
  '\u007f\u0085\u009f',
  '\ud800',
  'x\udfff',
  '\ud83d\ude00'.repeat(40),
  '\u202eevil',
  '\ufeff\ufffe\uffff',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '../../etc/passwd',
  '%00%ff',
  '',
  ' ',
  '\t\n\r',
];

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function validString(node: JsonSchema, pools: FuzzPools, key: string): fc.Arbitrary<string> {
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as string[]));
  if (node.format === 'uuid') {
    const ids = idsFor(key, pools);
    return ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid();
  }
  if (node.format === 'email') return pools.emails.length ? fc.constantFrom(...pools.emails) : fc.emailAddress();
  // A pattern of the field's own (such as six digits) beyond the text rules: generate matching strings.
  const patterns = [
    node.pattern,
    ...(Array.isArray(node.allOf) ? (node.allOf as JsonSchema[]) : []).map((p) => p.pattern),
  ];
  const own = patterns.find(
    (p): p is string => typeof p === 'string' && p !== FREE_TEXT_PATTERN.source && p !== LINE_TEXT_PATTERN.source,
  );
  if (own !== undefined) return fc.stringMatching(new RegExp(own));
  const minLength = num(node.minLength) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(node.maxLength) ?? 40, 40));
  const printable = fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
  // Free text also gets tabs and line breaks.
  if (node.pattern !== FREE_TEXT_PATTERN.source) return printable;
  return fc.oneof(printable, fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\n', 'é'), minLength, maxLength }));
}

/** A control character, or half of a surrogate pair. */
const badCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'),
);

function hostileString(node: JsonSchema, pools: FuzzPools, key: string): fc.Arbitrary<string> {
  const maxLength = num(node.maxLength);
  // A value that is right in every way but one character: the case most likely to reach the database.
  const oneBadCharacter = fc.tuple(validString(node, pools, key), badCharacter, fc.nat()).map(([text, bad, at]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    return text.slice(0, i) + bad + text.slice(i + (text.length > 1 ? 1 : 0));
  });
  return fc.oneof(
    { weight: 3, arbitrary: oneBadCharacter },
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
    fc.constant('x'.repeat((maxLength ?? 1000) + 1)),
  );
}

function validNumber(node: JsonSchema): fc.Arbitrary<number> {
  const min = num(node.minimum) ?? num(node.exclusiveMinimum) ?? -1000;
  const max = num(node.maximum) ?? num(node.exclusiveMaximum) ?? 1000;
  // Bounded counts (such as study logins per batch) stay small: the fuzz is about input, not load.
  const top = Math.min(max, min + 20);
  return node.type === 'integer'
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(top) })
    : fc.double({ min, max: top, noNaN: true, noDefaultInfinity: true });
}

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 0.5, -0.5, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE),
);

/** Anything JSON can carry, for a field that gets the wrong type. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constant([]),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 2 }),
);

function objectArbitrary(node: JsonSchema, pools: FuzzPools, mode: FuzzMode): fc.Arbitrary<unknown> {
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(properties)) {
    // An email behind a pipe (trim, then the email check) shows as a plain string in the input schema.
    const node = /email/i.test(key) && child.type === 'string' ? { ...child, format: 'email' } : child;
    shape[key] = arbitraryFromJsonSchema(node, pools, mode, key);
  }
  const keys = Object.keys(shape);
  const requiredKeys = keys.filter((k) => required.has(k));
  if (mode === 'valid') return fc.record(shape, { requiredKeys });
  // One field hostile, the others valid (gets furthest past validation); or every field possibly hostile.
  const valid = objectArbitrary(node, pools, 'valid');
  const oneFault =
    keys.length === 0
      ? valid
      : fc
          .constantFrom(...keys)
          .chain((faulty) =>
            fc
              .tuple(valid, shape[faulty] ?? fc.constant(undefined))
              .map(([base, bad]) => ({ ...(base as object), [faulty]: bad })),
          );
  const anyFault = fc.record(shape, { requiredKeys: [] });
  // Extra keys, such as __proto__ and constructor, must be refused or ignored, never trusted.
  const extra = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'extra'), wrongType, {
    maxKeys: 2,
  });
  return fc
    .tuple(fc.oneof({ weight: 3, arbitrary: oneFault }, { weight: 1, arbitrary: anyFault }), fc.option(extra))
    .map(([base, more]) => (more ? { ...more, ...(base as object) } : base));
}

/** An arbitrary producing values for a JSON Schema node. */
export function arbitraryFromJsonSchema(
  node: JsonSchema,
  pools: FuzzPools,
  mode: FuzzMode,
  key = '',
): fc.Arbitrary<unknown> {
  const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  let valid: fc.Arbitrary<unknown>;
  if (node.const !== undefined) {
    valid = fc.constant(node.const);
  } else if (node.type === 'string') {
    valid =
      mode === 'valid'
        ? validString(node, pools, key)
        : fc.oneof(
            { weight: 1, arbitrary: validString(node, pools, key) },
            { weight: 3, arbitrary: hostileString(node, pools, key) },
          );
  } else if (Array.isArray(variants)) {
    valid = fc.oneof(...variants.map((v) => arbitraryFromJsonSchema(v, pools, mode, key)));
  } else if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    valid = arbitraryFromJsonSchema({ ...node, allOf: undefined, ...(node.allOf[0] as JsonSchema) }, pools, mode, key);
  } else if (node.type === 'object') {
    valid = objectArbitrary(node, pools, mode);
  } else if (node.type === 'array') {
    valid = fc.array(arbitraryFromJsonSchema((node.items ?? {}) as JsonSchema, pools, mode, key), { maxLength: 5 });
  } else if (node.type === 'number' || node.type === 'integer') {
    valid = mode === 'valid' ? validNumber(node) : fc.oneof(validNumber(node), hostileNumber);
  } else if (node.type === 'boolean') {
    valid = fc.boolean();
  } else if (node.type === 'null') {
    valid = fc.constant(null);
  } else {
    valid = fc.jsonValue({ maxDepth: 2 });
  }
  if (mode === 'valid') return valid;
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: wrongType });
}

/** What a fuzzed request sends as its body. */
export type FuzzBody = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };

const RAW_BODIES = [
  '{',
  '{"a":',
  '[1,2',
  'null',
  '"text"',
  '{"__proto__":{"isAdmin":true}}',
  '\u0000',
  '{}'.repeat(50),
];

/** Bodies for a route: mostly shaped by its schema, some plain JSON of any shape, some broken JSON. */
export function bodyArbitrary(schema: z.ZodType | undefined, pools: FuzzPools): fc.Arbitrary<FuzzBody> {
  const json = (value: unknown): FuzzBody => ({ kind: 'json', value });
  const shaped = schema
    ? [
        { weight: 3, arbitrary: arbitraryFromJsonSchema(jsonSchemaOf(schema), pools, 'valid').map(json) },
        { weight: 5, arbitrary: arbitraryFromJsonSchema(jsonSchemaOf(schema), pools, 'hostile').map(json) },
      ]
    : [];
  return fc.oneof(
    ...shaped,
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((text): FuzzBody => ({ kind: 'raw', text })) },
  );
}

/** Percent-encodes a path segment; broken UTF-16 (which encodeURIComponent refuses) becomes an invalid escape. */
export function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%E0%A4%A';
  }
}

/** Path parameters and query strings for a route, from its schemas (string values only). */
export function stringRecordArbitrary(
  schema: z.ZodType | undefined,
  pools: FuzzPools,
  options: { allOptional: boolean },
): fc.Arbitrary<Partial<Record<string, string>>> {
  if (!schema) return fc.constant({});
  const node = jsonSchemaOf(schema);
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const shape: Record<string, fc.Arbitrary<string>> = {};
  for (const [key, child] of Object.entries(properties)) {
    shape[key] = fc.oneof(
      { weight: 4, arbitrary: validString(child, pools, key) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: hostileString(child, pools, key) },
    );
  }
  return fc.record(shape, options.allOptional ? { requiredKeys: [] } : {});
}

/**
 * Copies of a body with one bad character put into one of its text values, for each text value in turn:
 * the systematic complement of the random search, so no text field of a valid body is missed.
 */
export function withBadCharacterInEachText(body: unknown): unknown[] {
  const variants: unknown[] = [];
  const visit = (value: unknown, replace: (v: unknown) => unknown): void => {
    if (typeof value === 'string') {
      for (const bad of ['\u0000', '\u001b', '\ud800']) variants.push(replace(`${value}${bad}`));
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, (v) => replace(value.map((x, j) => (j === i ? v : x)))));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(item, (v) => replace({ ...value, [key]: v }));
    }
  };
  visit(body, (v) => v);
  return variants;
}
