import type { Experiment } from '@studychat/contracts/web';
import { describe, expect, it } from 'vitest';
import { computeEditChanges, editFormFrom } from './edit-changes';

const experiment: Experiment = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'MMR pilot',
  description: 'First wave',
  completion_codes: { complete: 'C123', exitnoqualms: null, exitceiling: 'CE1' },
  study_version_id: null,
  state: 'open',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
};

describe('computeEditChanges', () => {
  it('sends nothing when nothing changed (including whitespace-only edits)', () => {
    const form = editFormFrom(experiment);
    expect(computeEditChanges(experiment, form)).toEqual({});
    expect(computeEditChanges(experiment, { ...form, name: '  MMR pilot ', description: 'First wave  ' })).toEqual({});
  });

  it('sends only the name when only the name changed', () => {
    const form = { ...editFormFrom(experiment), name: '  MMR main  ' };
    expect(computeEditChanges(experiment, form)).toEqual({ details: { name: 'MMR main' } });
  });

  it('sends only the description when only the description changed; an emptied one as null', () => {
    const form = editFormFrom(experiment);
    expect(computeEditChanges(experiment, { ...form, description: 'Second wave' })).toEqual({
      details: { description: 'Second wave' },
    });
    expect(computeEditChanges(experiment, { ...form, description: '   ' })).toEqual({ details: { description: null } });
  });

  it('sends only changed, non-empty trimmed codes, and never an emptied one', () => {
    const form = editFormFrom(experiment);
    const changes = computeEditChanges(experiment, {
      ...form,
      codes: { complete: 'C123', exitnoqualms: '  NQ9  ', exitceiling: '' },
    });
    expect(changes).toEqual({ codes: { exitnoqualms: 'NQ9' } });
  });

  it('sends details and codes together when both changed', () => {
    const form = editFormFrom(experiment);
    expect(
      computeEditChanges(experiment, { ...form, name: 'Renamed', codes: { ...form.codes, complete: 'C999' } }),
    ).toEqual({
      details: { name: 'Renamed' },
      codes: { complete: 'C999' },
    });
  });

  it('treats a missing description as empty', () => {
    const bare = { ...experiment, description: null };
    expect(computeEditChanges(bare, editFormFrom(bare))).toEqual({});
  });
});
