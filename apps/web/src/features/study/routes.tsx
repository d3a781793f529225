import { useEffect, type ReactNode } from 'react';
import { Route } from '../../lib/router';
import { StudyRoute } from './StudyRoute';
import {
  BaselinePage,
  ChatPage,
  CompletionPage,
  ConfirmPage,
  ConsentPage,
  EntryPage,
  FinishedPage,
  FlowRoutePage,
  PostSurveyPage,
  PreSurveyPage,
  preloadStudyPages,
  ProlificPage,
  StaticIntroPage,
  StaticPage,
} from './study-pages';

/** Starts loading the other study pages in the background once this one is on screen. */
function Preload({ children }: { children: ReactNode }) {
  useEffect(preloadStudyPages, []);
  return children;
}

/** Public landing and participant study routes (spec section 2). */
export function studyRoutes() {
  return (
    <>
      <Route
        path="/prolific"
        element={
          <Preload>
            <ProlificPage />
          </Preload>
        }
      />
      <Route
        path="/flow/:experimentId"
        element={
          <Preload>
            <FlowRoutePage />
          </Preload>
        }
      />
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
      <Route path="/finished" element={<FinishedPage />} />
    </>
  );
}
