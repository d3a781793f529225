import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import type { PageStudy } from '../study-context';
import { EXP_ID, loginAs, mockApi, renderAt, Guarded } from '../test-support';
import { BaselinePage } from './BaselinePage';
import { EntryPage } from './EntryPage';

afterEach(() => vi.unstubAllGlobals());

// The reminder the entry and baseline pages quote is the study's `entry.reminder` (docs/decisions/0062), not
// whichever paragraph of the scenario happens to be second.
const study: PageStudy = {
  ...builtInStudy,
  entry: {
    ...builtInStudy.entry,
    title: 'Bedtime Reminder',
    scenario: ['Please imagine your child’s school starts again next week.', 'How do you feel about bedtimes?'],
    reminder: 'School starts on Monday: bedtime moves back to 7:30 pm.',
  },
};

function show(page: 'entry' | 'baseline') {
  mockApi({});
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  renderAt(
    <Guarded study={study}>{page === 'entry' ? <EntryPage /> : <BaselinePage />}</Guarded>,
    page === 'entry' ? '/entry' : '/baseline-intention',
  );
}

describe("the study's own reminder", () => {
  it('is quoted on the entry page between its first scenario paragraph and the question', () => {
    show('entry');
    const quote = document.querySelector('blockquote');
    expect(quote).toHaveTextContent(study.entry.reminder);
    expect(quote?.previousElementSibling).toHaveTextContent(study.entry.scenario[0] ?? '');
    expect(quote?.nextElementSibling).toHaveTextContent('How do you feel about bedtimes?');
  });

  it('is quoted on the baseline page', () => {
    show('baseline');
    expect(document.querySelector('blockquote')).toHaveTextContent(study.entry.reminder);
    expect(screen.queryByText('How do you feel about bedtimes?')).toBeNull();
  });
});
