export * from './types.js';
export * from './sections.js';
export * from './pathways.js';
export * from './conditions.js';
export { studyDefinition } from './mmr-study.js';
export * from './schema.js';
export * from './upgrade.js';
export { MMR_BASELINE_KEY, MMR_ENTRY_KEY, MMR_ENTRY_VALUES, MMR_POST_KEY } from './mmr-study.keys.js';
export { MARKDOWN_MAX_CHARS, MARKDOWN_MAX_NESTING, markdownProblems } from './markdown.js';
