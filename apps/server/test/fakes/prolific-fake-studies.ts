import type { ServerResponse } from 'node:http';

// The study side of the fake Prolific (docs/decisions/0090-prolific-launch.md), following the documented payloads:
// POST /api/v1/studies/ validates the draft (the study URL with its three placeholders, url_parameters, a code per
// pathway with a known type and action, whole-number places, reward and minutes, known devices) and answers it
// UNPUBLISHED; POST /api/v1/studies/{id}/transition/ with PUBLISH makes it ACTIVE; POST /api/v1/credentials/ keeps a
// CSV of `username,password` lines for a workspace and answers the pool's id.

export interface FakeStudy {
  id: string;
  status: string;
  body: Record<string, unknown>;
}

export interface FakeCredentialPool {
  id: string;
  workspaceId: string;
  credentials: { username: string; password: string }[];
}

export interface FakeStudyState {
  studies: FakeStudy[];
  credentialPools: FakeCredentialPool[];
}

const CODE_TYPES = [
  'COMPLETED',
  'FAILED_ATTENTION_CHECK',
  'FOLLOW_UP_STUDY',
  'GIVE_BONUS',
  'INCOMPATIBLE_DEVICE',
  'NO_CONSENT',
  'OTHER',
];
const ACTIONS = ['AUTOMATICALLY_APPROVE', 'MANUALLY_REVIEW', 'REQUEST_RETURN'];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const PLACEHOLDERS = ['{{%PROLIFIC_PID%}}', '{{%STUDY_ID%}}', '{{%SESSION_ID%}}'];

type Json = (res: ServerResponse, status: number, body: unknown) => void;

let counter = 0;
const newId = (prefix: string) => `${prefix}${(++counter).toString(16).padStart(20, '0')}`;

/** Why Prolific would refuse this draft, or null. */
export function draftProblem(body: Record<string, unknown>): string | null {
  for (const field of ['name', 'description', 'external_study_url']) {
    if (typeof body[field] !== 'string' || body[field] === '') return `${field}: this field is required`;
  }
  const url = body.external_study_url as string;
  if (!/^https?:\/\//.test(url)) return 'external_study_url: enter a valid URL';
  const missing = PLACEHOLDERS.find((p) => !url.includes(p));
  if (missing) return `external_study_url: the URL lacks ${missing}`;
  if (body.prolific_id_option !== 'url_parameters') return 'prolific_id_option: expected url_parameters';
  for (const field of ['total_available_places', 'estimated_completion_time', 'reward']) {
    const value = body[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return `${field}: a positive integer`;
  }
  const devices = body.device_compatibility;
  if (!Array.isArray(devices) || devices.length === 0 || devices.some((d) => !DEVICES.includes(d as string))) {
    return 'device_compatibility: desktop, mobile or tablet';
  }
  const codes = body.completion_codes;
  if (!Array.isArray(codes) || codes.length === 0) return 'completion_codes: specify at least one';
  const seen = new Set<string>();
  for (const code of codes as Record<string, unknown>[]) {
    if (typeof code.code !== 'string' || code.code === '') return 'completion_codes: a code is empty';
    if (seen.has(code.code)) return 'completion_codes: each code must be unique within a study';
    seen.add(code.code);
    if (!CODE_TYPES.includes(code.code_type as string))
      return `completion_codes: unknown code_type ${String(code.code_type)}`;
    const actions = code.actions;
    if (!Array.isArray(actions) || actions.some((a) => !ACTIONS.includes((a as { action?: string }).action ?? ''))) {
      return 'completion_codes: unknown action';
    }
    const names = (actions as { action: string }[]).map((a) => a.action);
    if (names.includes('AUTOMATICALLY_APPROVE') && names.includes('MANUALLY_REVIEW')) {
      return 'completion_codes: AUTOMATICALLY_APPROVE and MANUALLY_REVIEW cannot be used together';
    }
  }
  return null;
}

/** Answers the study and credentials endpoints; false when the request is not one of them. */
export function handleStudyRequest(
  state: FakeStudyState,
  method: string,
  path: string,
  body: unknown,
  res: ServerResponse,
  json: Json,
): boolean {
  const data = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (method === 'POST' && path === '/api/v1/studies/') {
    const problem = draftProblem(data);
    if (problem) {
      json(res, 400, { error: { detail: problem } });
      return true;
    }
    const poolId = data.credential_pool_id;
    if (poolId !== undefined && !state.credentialPools.some((p) => p.id === poolId)) {
      json(res, 400, { error: { detail: 'credential_pool_id: no such credential pool' } });
      return true;
    }
    const study: FakeStudy = { id: newId('st'), status: 'UNPUBLISHED', body: data };
    state.studies.push(study);
    json(res, 201, { id: study.id, status: study.status, ...data });
    return true;
  }
  const transition = /^\/api\/v1\/studies\/([^/]+)\/transition\/$/.exec(path);
  if (method === 'POST' && transition) {
    const study = state.studies.find((s) => s.id === decodeURIComponent(transition[1] ?? ''));
    if (!study) {
      json(res, 404, { error: { detail: 'Not found.' } });
      return true;
    }
    if (data.action !== 'PUBLISH' || study.status !== 'UNPUBLISHED') {
      json(res, 400, { error: { detail: `Cannot ${String(data.action)} a study that is ${study.status}.` } });
      return true;
    }
    study.status = 'ACTIVE';
    json(res, 200, { id: study.id, status: study.status });
    return true;
  }
  if (method === 'POST' && path === '/api/v1/credentials/') {
    if (typeof data.workspace_id !== 'string' || typeof data.credentials !== 'string' || data.credentials === '') {
      json(res, 400, { error: { detail: 'credentials and workspace_id are required' } });
      return true;
    }
    const credentials = data.credentials.split('\n').map((line) => {
      const [username = '', password = ''] = line.split(',');
      return { username, password };
    });
    if (credentials.some((c) => !c.username || !c.password)) {
      json(res, 400, { error: { detail: 'credentials: each line is username,password' } });
      return true;
    }
    if (new Set(credentials.map((c) => c.username)).size !== credentials.length) {
      json(res, 400, { error: { detail: 'credentials: duplicate usernames' } });
      return true;
    }
    const pool: FakeCredentialPool = { id: newId('cp'), workspaceId: data.workspace_id, credentials };
    state.credentialPools.push(pool);
    json(res, 201, { credential_pool_id: pool.id });
    return true;
  }
  return false;
}
