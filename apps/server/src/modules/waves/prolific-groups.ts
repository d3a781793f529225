import type { ProlificClient } from '../prolific/prolific-client.js';
import { ProlificError } from '../prolific/prolific-client.js';

// Prolific's participant groups, as documented (docs/decisions/0091): create one in a workspace with its first
// participants (`POST /api/v1/participant-groups/`, answered with its `id`), and append participants to it
// (`POST /api/v1/participant-groups/{id}/participants/`; ids already in the group are ignored; answered with every
// participant now in the group as `results`).

export async function createParticipantGroup(
  client: ProlificClient,
  group: { name: string; workspaceId: string; ids: readonly string[] },
): Promise<string> {
  const body = (await client.request('POST', '/api/v1/participant-groups/', {
    name: group.name,
    workspace_id: group.workspaceId,
    participant_ids: group.ids,
  })) as { id?: unknown };
  if (typeof body.id !== 'string') throw new ProlificError('unavailable', 'Prolific answered without a group id');
  return body.id;
}

/** Adds the ids; answers how many participants the group now has. */
export async function addToParticipantGroup(
  client: ProlificClient,
  groupId: string,
  ids: readonly string[],
): Promise<number> {
  const body = (await client.request(
    'POST',
    `/api/v1/participant-groups/${encodeURIComponent(groupId)}/participants/`,
    {
      participant_ids: ids,
    },
  )) as { results?: unknown };
  return Array.isArray(body.results) ? body.results.length : ids.length;
}
