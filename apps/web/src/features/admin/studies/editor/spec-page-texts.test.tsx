import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../../../study/builtin-study';
import { CompletionPage } from '../../../study/completion/CompletionPage';
import { StaticIntroPage } from '../../../study/static/StaticIntroPage';
import { EXP_ID, journey, loginAs, mockApi, renderAt, Guarded } from '../../../study/test-support';
import { SPEC_COMPLETION, SPEC_STATIC_INTRO } from './spec-page-texts';

afterEach(() => vi.unstubAllGlobals());

// The editor's placeholders are a copy of the pages' own wording: this is what keeps the copy true.
describe("the editor's copy of the spec's page texts", () => {
  it('is what the static-intro page shows for a study without its own texts', () => {
    loginAs();
    renderAt(
      <Guarded journey={journey({ condition: 'control' })}>
        <StaticIntroPage />
      </Guarded>,
      `/experiment/${EXP_ID}/static-intro`,
      '/experiment/:experimentId/static-intro',
    );
    const { topic, sections } = builtInStudy.conditions.control;
    expect(screen.getByRole('heading', { name: SPEC_STATIC_INTRO.title })).toBeInTheDocument();
    const shown = SPEC_STATIC_INTRO.paragraphs.map((text) =>
      text.replace('{sections}', sections.length === 4 ? 'four' : String(sections.length)).replace('{topic}', topic),
    );
    const paragraphs = screen.getAllByText((_, el) => el?.tagName === 'P').map((p) => p.textContent);
    for (const text of shown) expect(paragraphs).toContain(text);
  });

  it('is what the completion page shows for a study without its own texts', async () => {
    mockApi({
      [`GET /api/experiments/${EXP_ID}/completion-code`]: {
        status: 200,
        body: { code: 'C-1', pathway: 'complete', key: 'complete' },
      },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<CompletionPage />, '/completion?pathway=complete', '/completion');
    expect(await screen.findByText('C-1')).toBeInTheDocument();
    expect(screen.getByText(SPEC_COMPLETION.instructions)).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`^${SPEC_COMPLETION.thanks.replace('.', '\\.')}`))).toBeInTheDocument();
  });
});
