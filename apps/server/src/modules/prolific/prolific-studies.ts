import { ProlificError, type ProlificClient } from './prolific-client.js';

// Prolific's study and credentials endpoints, as its documentation gives them (docs/decisions/0090-prolific-launch.md):
// a draft study (POST /api/v1/studies/), its publication (POST /api/v1/studies/{id}/transition/ with PUBLISH),
// and a workspace's credential pool (POST /api/v1/credentials/ with a CSV of `username,password` lines).
// Kept beside the client (not in it) so the client stays small; each goes through the client's request (Token
// header, 429 waited out, time-out).

export interface DraftStudy {
  name: string;
  internal_name: string;
  description: string;
  external_study_url: string;
  prolific_id_option: 'url_parameters';
  completion_codes: { code: string; code_type: string; actions: { action: string }[] }[];
  total_available_places: number;
  estimated_completion_time: number;
  reward: number;
  device_compatibility: string[];
  credential_pool_id?: string;
}

/** Creates a draft (UNPUBLISHED) study; answers its id and status. */
export async function createDraftStudy(
  client: ProlificClient,
  study: DraftStudy,
): Promise<{ id: string; status: string }> {
  const body = (await client.request('POST', '/api/v1/studies/', study)) as { id?: unknown; status?: unknown };
  if (typeof body.id !== 'string' || body.id === '') {
    throw new ProlificError('unavailable', 'Prolific answered without the new study’s id');
  }
  return { id: body.id, status: typeof body.status === 'string' ? body.status : '' };
}

/** Publishes a draft study (the PUBLISH transition); answers its status. */
export async function publishStudy(client: ProlificClient, studyId: string): Promise<{ status: string }> {
  const body = (await client.request('POST', `/api/v1/studies/${encodeURIComponent(studyId)}/transition/`, {
    action: 'PUBLISH',
  })) as { status?: unknown };
  return { status: typeof body.status === 'string' ? body.status : '' };
}

/** Creates a credential pool in a workspace from `username,password` pairs; answers its id. */
export async function createCredentialPool(
  client: ProlificClient,
  workspaceId: string,
  credentials: readonly { username: string; password: string }[],
): Promise<string> {
  const csv = credentials.map((c) => `${c.username},${c.password}`).join('\n');
  const body = (await client.request('POST', '/api/v1/credentials/', {
    credentials: csv,
    workspace_id: workspaceId,
  })) as { credential_pool_id?: unknown };
  if (typeof body.credential_pool_id !== 'string' || body.credential_pool_id === '') {
    throw new ProlificError('unavailable', 'Prolific answered without the credential pool’s id');
  }
  return body.credential_pool_id;
}
