export * from './types.js';
export { studyDefinition } from './mmr-study.js';
