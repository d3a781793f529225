import { lazy } from 'react';
import { Route } from 'react-router';
import { StudyRoute } from './StudyRoute';

// Each page is its own chunk, so the landing page's initial JavaScript stays within budget.
const ProlificPage = lazy(() => import('./pages/ProlificPage').then((m) => ({ default: m.ProlificPage })));
const ConsentPage = lazy(() => import('./pages/ConsentPage').then((m) => ({ default: m.ConsentPage })));
const EntryPage = lazy(() => import('./pages/EntryPage').then((m) => ({ default: m.EntryPage })));
const ConfirmPage = lazy(() => import('./pages/ConfirmPage').then((m) => ({ default: m.ConfirmPage })));
const BaselinePage = lazy(() => import('./pages/BaselinePage').then((m) => ({ default: m.BaselinePage })));
const PreSurveyPage = lazy(() => import('./pages/PreSurveyPage').then((m) => ({ default: m.PreSurveyPage })));
const StaticIntroPage = lazy(() => import('./static/StaticIntroPage').then((m) => ({ default: m.StaticIntroPage })));
const StaticPage = lazy(() => import('./static/StaticPage').then((m) => ({ default: m.StaticPage })));
const ChatPage = lazy(() => import('../chat/ChatPage').then((m) => ({ default: m.ChatPage })));
const PostSurveyPage = lazy(() => import('./pages/PostSurveyPage').then((m) => ({ default: m.PostSurveyPage })));
const CompletionPage = lazy(() => import('./completion/CompletionPage').then((m) => ({ default: m.CompletionPage })));

/** Public landing and participant study routes (spec section 2). */
export function studyRoutes() {
  return (
    <>
      <Route path="/prolific" element={<ProlificPage />} />
      <Route
        path="/consent"
        element={
          <StudyRoute step="consent">
            <ConsentPage />
          </StudyRoute>
        }
      />
      <Route
        path="/entry"
        element={
          <StudyRoute step="entry">
            <EntryPage />
          </StudyRoute>
        }
      />
      <Route
        path="/confirm"
        element={
          <StudyRoute step="confirm">
            <ConfirmPage />
          </StudyRoute>
        }
      />
      <Route
        path="/baseline-intention"
        element={
          <StudyRoute step="baseline-intention">
            <BaselinePage />
          </StudyRoute>
        }
      />
      <Route
        path="/pre-survey"
        element={
          <StudyRoute step="pre-survey">
            <PreSurveyPage />
          </StudyRoute>
        }
      />
      <Route
        path="/experiment/:experimentId/static-intro"
        element={
          <StudyRoute step="static-intro">
            <StaticIntroPage />
          </StudyRoute>
        }
      />
      <Route
        path="/experiment/:experimentId/static"
        element={
          <StudyRoute step="static">
            <StaticPage />
          </StudyRoute>
        }
      />
      <Route
        path="/experiment/:experimentId/chat"
        element={
          <StudyRoute step="chat">
            <ChatPage />
          </StudyRoute>
        }
      />
      <Route
        path="/post-survey"
        element={
          <StudyRoute step="post-survey">
            <PostSurveyPage />
          </StudyRoute>
        }
      />
      <Route
        path="/completion"
        element={
          <StudyRoute step="completion">
            <CompletionPage />
          </StudyRoute>
        }
      />
    </>
  );
}
