export * from './types.js';
export * from './sections.js';
export { studyDefinition } from './mmr-study.js';
export * from './schema.js';
