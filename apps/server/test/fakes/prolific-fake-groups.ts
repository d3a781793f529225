import type { ServerResponse } from 'node:http';

// Participant groups in the fake Prolific (docs/decisions/0091-follow-up-waves.md), as documented: POST
// /api/v1/participant-groups/ needs a `name` and a `workspace_id` (or `organisation_id`), takes the first
// `participant_ids`, and answers the group with its `id`; POST /api/v1/participant-groups/{id}/participants/ appends
// ids (those already in are ignored) and answers every participant now in the group as `results`.

export interface FakeParticipantGroup {
  id: string;
  name: string;
  workspace_id: string;
  participants: Set<string>;
}

export interface FakeGroupState {
  participantGroups: FakeParticipantGroup[];
}

type Json = (res: ServerResponse, status: number, body: unknown) => void;

const ids = (value: unknown): string[] | null =>
  value === undefined ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;

/** Answers a participant-group request; false when the path is not one of them. */
export function handleGroupRequest(
  fake: FakeGroupState,
  method: string,
  path: string,
  body: unknown,
  res: ServerResponse,
  json: Json,
): boolean {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (method === 'POST' && path === '/api/v1/participant-groups/') {
    const first = ids(b.participant_ids);
    if (typeof b.name !== 'string' || b.name === '' || typeof b.workspace_id !== 'string' || first === null) {
      json(res, 400, { error: { detail: 'name and workspace_id are required; participant_ids is a list of ids' } });
      return true;
    }
    const group: FakeParticipantGroup = {
      id: `6${(fake.participantGroups.length + 1).toString(16).padStart(23, '0')}`,
      name: b.name,
      workspace_id: b.workspace_id,
      participants: new Set(first),
    };
    fake.participantGroups.push(group);
    json(res, 201, {
      id: group.id,
      name: group.name,
      workspace_id: group.workspace_id,
      organisation_id: null,
      description: null,
      participant_count: group.participants.size,
      is_deleted: false,
      feeder_studies: [],
    });
    return true;
  }
  const match = /^\/api\/v1\/participant-groups\/([^/]+)\/participants\/$/.exec(path);
  if (method === 'POST' && match) {
    const group = fake.participantGroups.find((g) => g.id === match[1]);
    if (!group) {
      json(res, 404, { error: { detail: 'Not found.' } });
      return true;
    }
    const more = ids(b.participant_ids);
    if (more === null) {
      json(res, 400, { error: { detail: 'participant_ids is a list of ids' } });
      return true;
    }
    for (const id of more) group.participants.add(id);
    json(res, 200, {
      results: [...group.participants].map((id) => ({ participant_id: id, datetime_created: '2026-11-28T00:00:00Z' })),
    });
    return true;
  }
  return false;
}
