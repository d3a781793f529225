import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetParticipant } from '../features/study/participant-store';
import { forgetParticipantStudies } from '../features/study/study-content';

// findBy* and waitFor wait up to 5 s (1 s by default), so a slow render on a busy CI machine is not a failure.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  forgetParticipantStudies();
  resetParticipant();
});
