// Web entry: everything the browser needs, with no zod at run time (zod alone is ~90 KB gzipped).
export * from './constants.js';
export { buildPath } from './route.js';
export type * from './route.js';
export { endpoints, type Endpoint } from './endpoints.js';
export * from './study/types.js';
export * from './study/sections.js';
export * from './study/pathways.js';
export * from './study/conditions.js';
export { isSafeMarkdownUrl } from './study/markdown-url.js';
export { studyDefinition } from './study/mmr-study.web.js';
/** The built-in pre-study survey on its own: only the pre-survey page loads it (the fallback study leaves it out). */
export { mmrPreSurvey } from './study/mmr-study.survey.js';
/** The chat's canned greetings on their own, so the chat page does not pull in the whole study text. */
export { mmrFallbackGreetings as chatFallbackGreetings } from './study/mmr-study.greeting.js';
export * from './chat-progress.js';
export * from './flow/types.js';
export * from './flow/rules.js';
export * from './flow/checks.js';
export * from './flow/overview.js';
export * from './flow/answers.js';
/** The study templates (admin pages only: the participant pages never import them). */
export { beliefChangeTemplate, FLOW_TEMPLATES } from './flow/templates/index.js';
export * from './event-stream.js';
export * from './chat-stream.js';
export * from './chat-limits.js';
export type * from './chat-settings.js';
export type { CodeKey, Condition, ErrorCode, ErrorReply, JourneyStep, Pathway } from './common.js';
export type { LoginResult, TokenPayload } from './auth.js';
export type { ReadyReply } from './health.js';
export type * from './experiments.js';
export type * from './participants.js';
export type * from './surveys.js';
export type * from './chat.js';
export type * from './journey.js';
export type * from './monitor.js';
export type * from './cost-estimate.js';
export type * from './provider-health.js';
export type * from './admin.js';
export type * from './security.js';
export type * from './staff.js';
export type * from './studies.js';
export type * from './preview.js';
export type * from './pilot.js';
export * from './pilot-personas.js';
export type * from './flow-journey.js';
export type * from './prolific.js';
export type { Role } from './auth.js';
export type * from './members.js';
