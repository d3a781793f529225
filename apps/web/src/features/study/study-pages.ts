import { lazy, type ComponentType } from 'react';

// Each page is its own chunk, so the landing page's initial JavaScript stays within budget; once a
// page is shown, the others load in the background, so moving on never waits on the network.
type Loader = () => Promise<{ default: ComponentType }>;

/** The same promise for the preload and for React.lazy, so a page's code is fetched once. */
function once(load: Loader): Loader {
  let promise: ReturnType<Loader> | undefined;
  return () => {
    promise ??= load().catch((error: unknown) => {
      promise = undefined; // let a later attempt try again (e.g. after a network blip)
      throw error;
    });
    return promise;
  };
}

const loaders = {
  ProlificPage: once(() => import('./pages/ProlificPage').then((m) => ({ default: m.ProlificPage }))),
  ConsentPage: once(() => import('./pages/ConsentPage').then((m) => ({ default: m.ConsentPage }))),
  EntryPage: once(() => import('./pages/EntryPage').then((m) => ({ default: m.EntryPage }))),
  ConfirmPage: once(() => import('./pages/ConfirmPage').then((m) => ({ default: m.ConfirmPage }))),
  BaselinePage: once(() => import('./pages/BaselinePage').then((m) => ({ default: m.BaselinePage }))),
  PreSurveyPage: once(() => import('./pages/PreSurveyPage').then((m) => ({ default: m.PreSurveyPage }))),
  StaticIntroPage: once(() => import('./static/StaticIntroPage').then((m) => ({ default: m.StaticIntroPage }))),
  StaticPage: once(() => import('./static/StaticPage').then((m) => ({ default: m.StaticPage }))),
  ChatPage: once(() => import('./chat/ChatPage').then((m) => ({ default: m.ChatPage }))),
  PostSurveyPage: once(() => import('./pages/PostSurveyPage').then((m) => ({ default: m.PostSurveyPage }))),
  CompletionPage: once(() => import('./completion/CompletionPage').then((m) => ({ default: m.CompletionPage }))),
  FinishedPage: once(() => import('./pages/FinishedPage').then((m) => ({ default: m.FinishedPage }))),
  FlowRoutePage: once(() => import('./flow/FlowRoutePage').then((m) => ({ default: m.FlowRoutePage }))),
} satisfies Record<string, Loader>;

export const ProlificPage = lazy(loaders.ProlificPage);
export const ConsentPage = lazy(loaders.ConsentPage);
export const EntryPage = lazy(loaders.EntryPage);
export const ConfirmPage = lazy(loaders.ConfirmPage);
export const BaselinePage = lazy(loaders.BaselinePage);
export const PreSurveyPage = lazy(loaders.PreSurveyPage);
export const StaticIntroPage = lazy(loaders.StaticIntroPage);
export const StaticPage = lazy(loaders.StaticPage);
export const ChatPage = lazy(loaders.ChatPage);
export const PostSurveyPage = lazy(loaders.PostSurveyPage);
export const CompletionPage = lazy(loaders.CompletionPage);
/** After "Finish & Close Window": done, logged out, may close the tab (issue 34). */
export const FinishedPage = lazy(loaders.FinishedPage);
/** A study written as a flow (issue 30): one page that shows whichever step the server says. */
export const FlowRoutePage = lazy(loaders.FlowRoutePage);

/**
 * The renderer of a study's Markdown (docs/decisions/0052), loaded only when a block is Markdown. Declared here,
 * in the entry, with the pages' own lazy imports: in ContentBlocks' chunk its import would cost the static page
 * its own preload list (about 100 bytes of a page at its 100 KB budget). Not preloaded with the pages.
 */
export const StudyMarkdown = lazy(() => import('./StudyMarkdown'));

let preloaded = false;

/** Loads every study page's code once, when the browser is idle (failures are retried by React.lazy on use). */
export function preloadStudyPages(): void {
  if (preloaded) return;
  preloaded = true;
  const run = () => {
    for (const load of Object.values(loaders)) load().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 3000 });
  else window.setTimeout(run, 1000);
}
