import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { builtInStudy } from '../builtin-study';
import { EXP_ID, journey, loginAs, renderAt, Guarded } from '../test-support';
import { StaticIntroPage } from './StaticIntroPage';

function show(study = builtInStudy) {
  loginAs();
  renderAt(
    <Guarded journey={journey({ condition: 'control' })} study={study}>
      <StaticIntroPage />
    </Guarded>,
    `/experiment/${EXP_ID}/static-intro`,
    '/experiment/:experimentId/static-intro',
  );
}

describe('StaticIntroPage', () => {
  it("says the spec's words for a study without its own texts", () => {
    show();
    expect(screen.getByRole('heading', { name: 'Before you begin' })).toBeInTheDocument();
    expect(screen.getByText(/Next, you will read four short sections of information about/)).toBeInTheDocument();
  });

  it("shows the study's own texts with its topic and number of sections filled in", () => {
    show({
      ...builtInStudy,
      pages: { staticIntro: { title: 'Bedtime reading', paragraphs: ['Read {sections} pages about {topic}.'] } },
    });
    expect(screen.getByRole('heading', { name: 'Bedtime reading' })).toBeInTheDocument();
    const sections = builtInStudy.conditions.control.sections.length;
    expect(
      screen.getByText(`Read ${sections} pages about ${builtInStudy.conditions.control.topic}.`),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Next, you will read/)).toBeNull();
  });
});
