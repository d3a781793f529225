import { describe, expect, it } from 'vitest';
import type { ParticipantStudy, StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { secondStudy } from './second-study.fixtures.js';

// A section written in Markdown (docs/decisions/0052): checked when the version is saved, and sent to the
// participant's pages as written (the web renders it without HTML, images or unsafe links).

type ErrorBody = { error: string; code: string; issues?: { path: string; message: string }[] };

const MARKDOWN = [
  '## Why sleep matters',
  '',
  'Children aged 6 to 12 need **9 to 12 hours** of sleep.',
  '',
  '| Age | Hours |',
  '| --- | ---: |',
  '| 6-12 | 9-12 |',
  '',
  'More at [the guidance](https://example.org/sleep).',
].join('\n');

function markdownStudy(markdown: string) {
  const study = secondStudy();
  const [first] = study.conditions.mmr.sections;
  if (!first) throw new Error('the second study has sections');
  first.blocks = [{ markdown }];
  return study;
}

describe.each(TEST_DIALECTS)('Markdown sections on %s', (dialect) => {
  const t = useTestApp(dialect);

  it("saves a Markdown section and sends it word for word in the participant view of the experiment's version", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', {
        label: 'Markdown',
        definition: markdownStudy(MARKDOWN),
      }),
      201,
    );
    const experiment = await createExperiment(t(), admin);
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
        study_version_id: version.id,
      }),
      200,
    );
    const participant = await participantAt(t(), experiment.id, 'joined');
    const view = expectJson<ParticipantStudy>(
      await send(t(), participant, 'GET', `/api/participants/study/${experiment.id}`),
      200,
    );
    expect(view.conditions.mmr?.sections[0]?.blocks).toEqual([{ markdown: MARKDOWN }]);
    // The other sections keep their structured blocks.
    expect(view.conditions.mmr?.sections[1]?.blocks).toEqual([{ paragraphs: ['Sleep fact number 2.'] }]);
  });

  it.each([
    ['a script element', '<script>alert(1)</script>', 'must not contain HTML'],
    ['a javascript: link', '[click](javascript:alert(1))', 'links must be'],
    ['an image from elsewhere', '![x](https://evil.example.org/x.png)', 'must not contain images'],
    ['a huge body', 'a'.repeat(10_001), '10000'],
    ['deep nesting', '> '.repeat(5_000), 'must not nest'],
  ])('refuses %s with its path, and writes nothing', async (_name, markdown, message) => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const before = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    const body = expectJson<ErrorBody>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', {
        label: 'Hostile',
        definition: markdownStudy(markdown),
      }),
      400,
    );
    expect(body.code).toBe('STUDY_INVALID');
    expect(body.issues).toEqual([
      { path: 'conditions.mmr.sections.0.blocks.0.markdown', message: expect.stringContaining(message) },
    ]);
    const after = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(after.length).toBe(before.length);
  });
});
