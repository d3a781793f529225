export * from './types.js';
export * from './rules.js';
export * from './checks.js';
export * from './overview.js';
export * from './legacy.js';
export * from './schema.js';
export * from './answers.js';
export * from './templates/index.js';
