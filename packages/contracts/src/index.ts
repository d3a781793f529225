// Server entry: zod schemas and route objects. The web app imports `@studychat/contracts/web`.
export * from './constants.js';
export * from './route.js';
export * from './common.js';
export * from './text.js';
export * from './auth.js';
export * from './health.js';
export * from './experiments.js';
export * from './participants.js';
export * from './surveys.js';
export * from './chat.js';
export * from './chat-limits.js';
export * from './chat-settings.js';
export * from './admin.js';
export * from './security.js';
export * from './endpoints.js';
export * from './study/index.js';
export * from './chat-progress.js';
