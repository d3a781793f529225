import { describe, expect, it } from 'vitest';
import { studyDefinition } from '@studychat/contracts';
import { newSession, useTestApp, type TestApp, type TestUser } from '../../test/app.js';
import { TEST_DIALECTS } from '../../test/databases.js';
import { EXPERIMENT_ROUTES } from '../plugins/experiment-access.js';
import {
  buildParticipantRows,
  insertExperimentRow,
  insertMemberRow,
  insertParticipantRows,
  insertUserRow,
} from '../../test/factories.js';

// The authorisation matrix: every API route the app registers x every kind of caller, in ONE table.
// The test fails when a registered route has no row (or a row names no route), so whoever adds a route
// adds its row. Each cell runs on a fresh world (rows inserted directly, sessions without the login
// route), so cells cannot affect each other. Requests aim at participant A's records where a route has a
// target; "B" is another participant of A's experiment, "C" a participant of another experiment.

const CALLERS = ['anonymous', 'A', 'B', 'C', 'analyst', 'admin', 'owner', 'editor', 'viewer', 'outsider'] as const;
type Who = (typeof CALLERS)[number];
// The last four are admins on a world whose experiment is members-only (docs/decisions/0087): its owner, an editor,
// a viewer, and an admin who is not a member ("outsider", who must hear 404 as if it did not exist). For the
// first six the world's experiment is lab-wide, as every experiment from before members.
const MEMBER_CALLERS: readonly Who[] = ['owner', 'editor', 'viewer', 'outsider'];

interface World {
  experimentId: string;
  otherExperimentId: string;
  users: Record<Exclude<Who, 'anonymous'>, TestUser>;
  threadOfA: string;
}

interface Row {
  request: (w: World) => { url: string; body?: unknown };
  /** Expected status per caller, in the order of CALLERS. */
  expect: [anonymous: number, A: number, B: number, C: number, analyst: number, admin: number];
  /**
   * For a route that names an experiment (plugins/experiment-access.ts), the status for its owner, an editor, a
   * viewer and a non-member admin. Other routes do not depend on membership: the four get what the admin gets.
   */
  members?: [owner: number, editor: number, viewer: number, outsider: number];
}

/** A well-formed id that names nothing. */
const NO_SUCH_ID = '00000000-0000-4000-8000-0000000000ff';

const STAFF_READ: Row['expect'] = [401, 403, 403, 403, 200, 200];
const ADMIN_ONLY: Row['expect'] = [401, 403, 403, 403, 403, 200];
/** A participant of the members-only experiment, read in the admin area: its members read it, others hear 404. */
const SCOPED_READ: Row['members'] = [200, 200, 200, 404];
/**
 * Routes that name a participant, not an experiment, and are scoped to the experiments the caller may see inside
 * their queries (modules/members/visibility.ts): they have member callers too.
 */
const SCOPED_IN_QUERIES = [
  'GET /api/admin/users/:id',
  'GET /api/admin/users/:id/threads',
  'GET /api/admin/users/:id/threads/:threadId/messages',
  'GET /api/admin/users/:id/assignments',
  'GET /api/admin/users/:id/survey-responses',
];

const MATRIX: Record<string, Row> = {
  'POST /api/auth/login': {
    request: (w) => ({ url: '/api/auth/login', body: { email: w.users.A.email, password: 'not-the-password' } }),
    expect: [401, 401, 401, 401, 401, 401],
  },
  'POST /api/auth/logout': { request: () => ({ url: '/api/auth/logout' }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/health': { request: () => ({ url: '/api/health' }), expect: [200, 200, 200, 200, 200, 200] },
  'GET /api/ready': { request: () => ({ url: '/api/ready' }), expect: [200, 200, 200, 200, 200, 200] },
  'GET /api/auth/security': {
    request: () => ({ url: '/api/auth/security' }),
    expect: [401, 200, 200, 200, 200, 200],
  },
  'POST /api/auth/totp/setup': {
    request: () => ({ url: '/api/auth/totp/setup' }),
    expect: [401, 403, 403, 403, 200, 200],
  },
  'POST /api/auth/totp/enable': {
    // No set-up started: a conflict for those who may enrol at all.
    request: () => ({ url: '/api/auth/totp/enable', body: { code: '123456' } }),
    expect: [401, 409, 409, 409, 409, 409],
  },
  'POST /api/auth/totp/disable': {
    request: () => ({ url: '/api/auth/totp/disable', body: { code: '123456' } }),
    expect: [401, 409, 409, 409, 409, 409],
  },
  'POST /api/auth/logout-all': {
    request: () => ({ url: '/api/auth/logout-all' }),
    expect: [401, 200, 200, 200, 200, 200],
  },
  'GET /api/experiments/:id/monitor': {
    // With the test runs listed (docs/decisions/0063): the fuller list, the same callers.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/monitor?include_tests=true` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/monitor/settings': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/monitor/settings`, body: { stale_minutes: 10 } }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'GET /api/experiments/:id/monitor/stream': {
    // The test configuration ends a stream after a moment, so the whole response arrives.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/monitor/stream` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'POST /api/participants/heartbeat': {
    request: () => ({ url: '/api/participants/heartbeat' }),
    expect: [401, 200, 200, 200, 200, 200],
  },
  'GET /api/admin/audit-log': { request: () => ({ url: '/api/admin/audit-log' }), expect: ADMIN_ONLY },
  'GET /api/admin/system': { request: () => ({ url: '/api/admin/system' }), expect: STAFF_READ },
  'GET /api/admin/users': { request: () => ({ url: '/api/admin/users' }), expect: STAFF_READ },
  'GET /api/admin/users/:id': {
    request: (w) => ({ url: `/api/admin/users/${w.users.A.id}` }),
    expect: STAFF_READ,
    members: SCOPED_READ,
  },
  'GET /api/admin/users/:id/threads': {
    request: (w) => ({ url: `/api/admin/users/${w.users.A.id}/threads` }),
    expect: STAFF_READ,
    members: SCOPED_READ,
  },
  'GET /api/admin/users/:id/threads/:threadId/messages': {
    request: (w) => ({ url: `/api/admin/users/${w.users.A.id}/threads/${w.threadOfA}/messages` }),
    expect: STAFF_READ,
    members: SCOPED_READ,
  },
  'GET /api/admin/users/:id/assignments': {
    request: (w) => ({ url: `/api/admin/users/${w.users.A.id}/assignments` }),
    expect: STAFF_READ,
    members: SCOPED_READ,
  },
  'GET /api/admin/users/:id/survey-responses': {
    request: (w) => ({ url: `/api/admin/users/${w.users.A.id}/survey-responses` }),
    expect: STAFF_READ,
    members: SCOPED_READ,
  },
  // People of the admin area (issue 34): admins only; the changes aim at the world's analyst.
  'GET /api/admin/staff': { request: () => ({ url: '/api/admin/staff' }), expect: ADMIN_ONLY },
  'POST /api/admin/staff': {
    request: (w) => ({ url: '/api/admin/staff', body: { email: `staff-${w.experimentId}@lab.test`, role: 'analyst' } }),
    expect: [401, 403, 403, 403, 403, 201],
  },
  'PUT /api/admin/staff/:id/role': {
    request: (w) => ({ url: `/api/admin/staff/${w.users.analyst.id}/role`, body: { role: 'admin' } }),
    expect: ADMIN_ONLY,
  },
  'DELETE /api/admin/staff/:id': {
    request: (w) => ({ url: `/api/admin/staff/${w.users.analyst.id}` }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/staff/:id/totp-reset': {
    request: (w) => ({ url: `/api/admin/staff/${w.users.analyst.id}/totp-reset` }),
    expect: ADMIN_ONLY,
  },
  'GET /api/experiments': { request: () => ({ url: '/api/experiments' }), expect: STAFF_READ },
  'POST /api/experiments': {
    request: () => ({ url: '/api/experiments', body: { name: 'New study' } }),
    expect: [401, 403, 403, 403, 403, 201],
  },
  'GET /api/experiments/:id': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}`, body: { name: 'Renamed' } }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'PUT /api/experiments/:id/state': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/state`, body: { state: 'paused' } }),
    expect: ADMIN_ONLY,
    members: [200, 403, 403, 404],
  },
  'DELETE /api/experiments/:id': {
    // The world's experiment is open with participants: an admin is refused for that, the others before it.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}` }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 403, 403, 404],
  },
  'GET /api/experiments/:id/quotas': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/quotas` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/quotas': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/quotas`,
      body: { quotas: [{ condition: 'mmr', stratum: '3-4', max: 150 }] },
    }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/experiments/:id/logins/revoke': {
    // A's account is no generated study login of the experiment: an admin learns that, the others nothing.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/logins/revoke`, body: { email: w.users.A.email } }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [404, 404, 403, 404],
  },
  'PUT /api/experiments/:id/completion-codes': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/completion-codes`,
      body: { codes: { complete: 'NEW' } },
    }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/experiments/:id/batch-credentials': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/batch-credentials`, body: { count: 1 } }),
    expect: [401, 403, 403, 403, 403, 201],
    members: [201, 201, 403, 404],
  },
  'GET /api/experiments/:id/logins': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/logins` }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'GET /api/admin/study-versions': { request: () => ({ url: '/api/admin/study-versions' }), expect: STAFF_READ },
  'GET /api/admin/study-versions/:id': {
    request: () => ({ url: `/api/admin/study-versions/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 404, 404],
  },
  'POST /api/admin/study-versions': {
    request: () => ({ url: '/api/admin/study-versions', body: { label: 'Matrix', definition: studyDefinition } }),
    expect: [401, 403, 403, 403, 403, 201],
  },
  'PUT /api/admin/study-versions/:id': {
    request: () => ({ url: `/api/admin/study-versions/${NO_SUCH_ID}`, body: { label: 'Renamed' } }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  'DELETE /api/admin/study-versions/:id': {
    request: () => ({ url: `/api/admin/study-versions/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  'POST /api/admin/study-versions/check': {
    request: () => ({ url: '/api/admin/study-versions/check', body: { definition: studyDefinition } }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/study-versions/:id/clone': {
    request: () => ({ url: `/api/admin/study-versions/${NO_SUCH_ID}/clone`, body: {} }),
    expect: [401, 403, 403, 403, 403, 404],
  },
  'POST /api/experiments/:id/previews': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/previews`, body: { condition: 'mmr' } }),
    expect: [401, 403, 403, 403, 403, 201],
    members: [201, 201, 403, 404],
  },
  'POST /api/experiments/:id/pilots': {
    // Only admins start a pilot run (a one-persona run of the world's experiment).
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/pilots`,
      body: { participants: 1, target_sample: 10 },
    }),
    expect: [401, 403, 403, 403, 403, 201],
    members: [201, 201, 403, 404],
  },
  'GET /api/experiments/:id/pilots': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/pilots` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/pilots/:pilotId': {
    // Staff read reports: no such run.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/pilots/${NO_SUCH_ID}` }),
    expect: [401, 403, 403, 403, 404, 404],
    members: [404, 404, 404, 404],
  },
  // The people on an experiment (docs/decisions/0087). The world's experiment is lab-wide for the first six
  // callers (no owner): the admin may add people (and so becomes its owner); the viewer is not on it for them.
  'GET /api/experiments/:id/members': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/members` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'POST /api/experiments/:id/members': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/members`,
      body: { email: w.users.analyst.email, role: 'viewer' },
    }),
    expect: [401, 403, 403, 403, 403, 201],
    members: [201, 403, 403, 404],
  },
  'PUT /api/experiments/:id/members/:userId': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/members/${w.users.viewer.id}`,
      body: { role: 'editor' },
    }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [200, 403, 403, 404],
  },
  'DELETE /api/experiments/:id/members/:userId': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/members/${w.users.viewer.id}` }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [200, 403, 403, 404],
  },
  'POST /api/preview/redeem': {
    // The token is the credential: an unknown one is refused for everybody.
    request: () => ({ url: '/api/preview/redeem', body: { token: 'not-a-preview-token' } }),
    expect: [401, 401, 401, 401, 401, 401],
  },
  'PUT /api/experiments/:id/study-version': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/study-version`,
      body: { study_version_id: NO_SUCH_ID },
    }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [404, 404, 403, 404],
  },
  'GET /api/participants/study/:experimentId': {
    // The study's participant-facing text (no prompts): its participants and staff; C has not joined it.
    request: (w) => ({ url: `/api/participants/study/${w.experimentId}` }),
    expect: [401, 200, 200, 404, 200, 200],
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/completion-code': {
    // A and B have not earned the pathway (403 PATHWAY_NOT_EARNED); C is not in the experiment.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/completion-code?pathway=complete` }),
    expect: [401, 403, 403, 403, 403, 200],
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/participant-summary': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/participant-summary` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/participants-detailed': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/participants-detailed` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/export/:file': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/export/participants.csv` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/export-package': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/export-package` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/export-transcripts': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/export-transcripts` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'POST /api/experiments/:id/withdrawals': {
    // Nobody in the experiment carries this id: the admin gets 404 (after every other caller was refused).
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/withdrawals`,
      body: { prolificId: 'NOBODY-HAS-THIS' },
    }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [404, 404, 403, 404],
  },
  'GET /api/experiments/:id/export-spreadsheet': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/export-spreadsheet` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/chat-limits': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/chat-limits` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/cost-estimate': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/cost-estimate?sample=100` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'GET /api/experiments/:id/monitor/provider-health': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/monitor/provider-health` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/chat-limits': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/chat-limits`,
      body: { overrides: { maxMessages: 20 } },
    }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/admin/model-check': { request: () => ({ url: '/api/admin/model-check' }), expect: ADMIN_ONLY },
  'POST /api/participants': {
    // For A: A already joined (409); anyone else naming A is refused, an admin too (docs/decisions/0074).
    request: (w) => ({
      url: '/api/participants',
      body: { user_id: w.users.A.id, experiment_id: w.experimentId, prolific_pid: 'PID-A' },
    }),
    expect: [401, 409, 403, 403, 403, 403],
  },
  'GET /api/participants/:userId/:experimentId': {
    request: (w) => ({ url: `/api/participants/${w.users.A.id}/${w.experimentId}` }),
    expect: [401, 200, 403, 403, 403, 200],
    members: [200, 200, 200, 404],
  },
  // The routes below act on the caller's own records only (no one else's id can be named): B acts on B's
  // own assignment in the same experiment; C, the analyst and the admin have none there.
  'POST /api/participants/consent': {
    request: (w) => ({ url: '/api/participants/consent', body: { experimentId: w.experimentId } }),
    expect: [401, 200, 200, 404, 404, 404],
  },
  'PUT /api/participants/prolific-id': {
    request: (w) => ({
      url: '/api/participants/prolific-id',
      body: { experimentId: w.experimentId, prolificId: 'PID-A' },
    }),
    expect: [401, 200, 403, 404, 404, 404],
  },
  'POST /api/participants/assign-condition': {
    request: (w) => ({ url: '/api/participants/assign-condition', body: { experimentId: w.experimentId } }),
    expect: [401, 200, 200, 404, 404, 404],
  },
  'POST /api/participants/completion': {
    // A and B are reading the sections: completion is not their step (409 STEP_OUT_OF_ORDER).
    request: (w) => ({
      url: '/api/participants/completion',
      body: { experimentId: w.experimentId, pathway: 'complete' },
    }),
    expect: [401, 409, 409, 404, 404, 404],
  },
  'GET /api/participants/status/:experimentId': {
    // Never 404 (docs/decisions/0007): "not completed" for anyone without a completion there.
    request: (w) => ({ url: `/api/participants/status/${w.experimentId}` }),
    expect: [401, 200, 200, 200, 200, 200],
  },
  'GET /api/participants/admission/:experimentId': {
    // Public: the study's landing page asks before anyone logs in (docs/decisions/0073); it says only yes or no.
    request: (w) => ({ url: `/api/participants/admission/${w.experimentId}` }),
    expect: [200, 200, 200, 200, 200, 200],
  },
  'GET /api/participants/journey/:experimentId': {
    request: (w) => ({ url: `/api/participants/journey/${w.experimentId}` }),
    expect: [401, 200, 200, 404, 404, 404],
    members: [404, 404, 404, 404],
  },
  // The flow routes (issue 30) on the world's experiment, which runs the built-in study: every caller who gets
  // past the guard hears that it is not a flow (flow.test.ts walks the routes on flows, callers included).
  'GET /api/participants/flow/:experimentId': {
    request: (w) => ({ url: `/api/participants/flow/${w.experimentId}` }),
    expect: [401, 409, 409, 409, 409, 409],
    members: [409, 409, 409, 404],
  },
  'POST /api/participants/flow/:experimentId/steps/:stepId': {
    request: (w) => ({ url: `/api/participants/flow/${w.experimentId}/steps/consent`, body: {} }),
    expect: [401, 409, 409, 409, 409, 409],
    members: [409, 409, 409, 404],
  },
  'POST /api/participants/flow/:experimentId/steps/:stepId/generate': {
    request: (w) => ({ url: `/api/participants/flow/${w.experimentId}/steps/summary/generate` }),
    expect: [401, 409, 409, 409, 409, 409],
    members: [409, 409, 409, 404],
  },
  'GET /api/experiments/:id/flow-progress': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/flow-progress` }),
    expect: [401, 403, 403, 403, 409, 409],
    members: [409, 409, 409, 404],
  },
  'GET /api/experiments/:id/flow-codes': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/flow-codes` }),
    expect: [401, 403, 403, 403, 409, 409],
    members: [409, 409, 409, 404],
  },
  'PUT /api/experiments/:id/flow-codes': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/flow-codes`, body: { codes: { complete: 'X' } } }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'POST /api/participants/sections/open': {
    request: (w) => ({
      url: '/api/participants/sections/open',
      body: { experimentId: w.experimentId, sectionIndex: 0 },
    }),
    expect: [401, 200, 200, 404, 404, 404],
  },
  'POST /api/participants/sections/finish': {
    // Not opened yet: out of order for A and B.
    request: (w) => ({
      url: '/api/participants/sections/finish',
      body: { experimentId: w.experimentId, sectionIndex: 0, visibleSeconds: 30, hiddenSeconds: 0 },
    }),
    expect: [401, 409, 409, 404, 404, 404],
  },
  'POST /api/chat/paste-blocked': {
    // The caller's own participation only: A and B are not at the chat (409), the others have none (404).
    request: (w) => ({ url: '/api/chat/paste-blocked', body: { experimentId: w.experimentId, length: 12 } }),
    expect: [401, 409, 409, 404, 404, 404],
  },
  'POST /api/surveys': {
    request: (w) => ({
      url: '/api/surveys',
      body: {
        user_id: w.users.A.id,
        experiment_id: w.experimentId,
        survey_type: 'post',
        responses: { post_intent: 5 },
      },
    }),
    // Only A writes A's answers, an admin neither (docs/decisions/0074). A is reading the sections, so the
    // post-survey is out of order (409) for A.
    expect: [401, 409, 403, 403, 403, 403],
  },
  'POST /api/chat/initiate': {
    // A and B already have a thread (a repeat); the others have no participation there.
    request: (w) => ({ url: '/api/chat/initiate', body: { experimentId: w.experimentId } }),
    expect: [401, 200, 200, 404, 404, 404],
  },
  'GET /api/chat/threads/:threadId/initial-message': {
    request: (w) => ({ url: `/api/chat/threads/${w.threadOfA}/initial-message` }),
    expect: [401, 200, 404, 404, 404, 404],
  },
  'POST /api/chat/threads/:threadId/messages': {
    request: (w) => ({ url: `/api/chat/threads/${w.threadOfA}/messages`, body: { message: 'Is it safe?' } }),
    expect: [401, 200, 404, 404, 404, 404],
  },
  'GET /api/chat/threads/:threadId/messages': {
    request: (w) => ({ url: `/api/chat/threads/${w.threadOfA}/messages` }),
    expect: [401, 200, 404, 404, 404, 404],
  },
  // The Prolific connection (docs/decisions/0083): admins only. The matrix sets a webhook secret and never a
  // token, so nothing here calls Prolific; the test of the connection finds no token (409) for the admin.
  'GET /api/admin/prolific': { request: () => ({ url: '/api/admin/prolific' }), expect: ADMIN_ONLY },
  'PUT /api/admin/prolific': {
    request: () => ({ url: '/api/admin/prolific', body: { webhookSecret: 'matrix-webhook-secret' } }),
    expect: ADMIN_ONLY,
  },
  'DELETE /api/admin/prolific': { request: () => ({ url: '/api/admin/prolific' }), expect: ADMIN_ONLY },
  'POST /api/admin/prolific/test': {
    request: () => ({ url: '/api/admin/prolific/test' }),
    expect: [401, 403, 403, 403, 403, 409],
  },
  'GET /api/experiments/:id/prolific-study': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific-study` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/prolific-study': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific-study`, body: { studyId: 'matrixstudy01' } }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/experiments/:id/prolific/approve': {
    // No token set in the matrix's world: the admin is told to set one (409), nothing is called.
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/approve`, body: { pathway: 'complete' } }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  // Follow-up waves (docs/decisions/0091): the world's experiment has real participants, so its wave is fixed (409);
  // no Prolific token, so a participant group is refused (409) before anything is called.
  'GET /api/experiments/:id/wave': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/wave` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/wave': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/wave`,
      body: { follows_experiment_id: null },
    }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'GET /api/experiments/:id/prolific/participant-group': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/participant-group` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'POST /api/experiments/:id/prolific/participant-group': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/prolific/participant-group`,
      body: { name: 'Wave 1', workspace_id: 'WS1', pathways: ['complete'] },
    }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  // Review and pay (docs/decisions/0089): admins (and a members-only experiment's editors). No token and no linked
  // study in the matrix's world, so nothing calls Prolific: a rejection is told to set a token (409), a bonus to link
  // the study (409), and a batch that does not exist is 404.
  'POST /api/experiments/:id/prolific/reject': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/prolific/reject`,
      body: { prolificPids: ['PIDA'], category: 'LOW_EFFORT', message: 'm'.repeat(100), confirm: true },
    }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'GET /api/experiments/:id/prolific/bonuses': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/bonuses` }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/experiments/:id/prolific/bonuses': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/prolific/bonuses`,
      body: {
        idempotencyKey: 'matrix-key-0001',
        reason: 'r',
        source: { kind: 'rule', pathway: 'complete', amount: '1' },
      },
    }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'POST /api/experiments/:id/prolific/bonuses/:batchId/pay': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/bonuses/${NO_SUCH_ID}/pay`, body: {} }),
    expect: [401, 403, 403, 403, 403, 404],
    members: [404, 404, 403, 404],
  },
  // Launching on Prolific (docs/decisions/0090): no token in the matrix's world, so the admin hears 409 and nothing
  // is called; the checklist is read by staff.
  'GET /api/experiments/:id/prolific/checklist': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/checklist` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'POST /api/experiments/:id/prolific/launch': {
    request: (w) => ({
      url: `/api/experiments/${w.experimentId}/prolific/launch`,
      body: {
        places: 5,
        rewardMinor: 100,
        estimatedMinutes: 10,
        devices: ['desktop'],
        pathways: [{ pathway: 'complete', outcome: 'completed', action: 'MANUALLY_REVIEW' }],
      },
    }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'POST /api/experiments/:id/prolific/publish': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/publish` }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'POST /api/experiments/:id/prolific/sync': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific/sync` }),
    expect: [401, 403, 403, 403, 403, 409],
    members: [409, 409, 403, 404],
  },
  'GET /api/experiments/:id/prolific-link-join': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific-link-join` }),
    expect: STAFF_READ,
    members: [200, 200, 200, 404],
  },
  'PUT /api/experiments/:id/prolific-link-join': {
    request: (w) => ({ url: `/api/experiments/${w.experimentId}/prolific-link-join`, body: { enabled: false } }),
    expect: ADMIN_ONLY,
    members: [200, 200, 403, 404],
  },
  'POST /api/prolific/join': {
    // Public: the Prolific ids are the credential, and only when the experiment's setting is on (off here).
    request: (w) => ({
      url: '/api/prolific/join',
      body: { experimentId: w.experimentId, prolificPid: 'MATRIXPID1', studyId: 'MATRIXSTUDY1', sessionId: 'MATRIXS1' },
    }),
    expect: [403, 403, 403, 403, 403, 403],
  },
  'POST /api/prolific/webhooks': {
    // Public, but only Prolific's signature opens it: an unsigned delivery is refused whoever sends it.
    request: () => ({
      url: '/api/prolific/webhooks',
      body: {
        resource_id: 'sub1',
        event_type: 'submission.status.change',
        participant_id: 'PID-A',
        status: 'APPROVED',
      },
    }),
    expect: [401, 401, 401, 401, 401, 401],
  },
};

/**
 * A fresh world: two experiments, A and B in the first (condition assigned, chat started), C in the second; with
 * `membersOnly`, the first has an owner, an editor and a viewer (the outsider admin is on neither).
 */
async function seedWorld(t: TestApp, membersOnly: boolean): Promise<World> {
  const db = t.database.db;
  const experimentId = String((await insertExperimentRow(db)).id);
  const otherExperimentId = String((await insertExperimentRow(db)).id);
  const participant = (experiment: string, pid: string) =>
    buildParticipantRows(experiment, {
      assignment: { assigned_condition: 'mmr', stratum: '3-4', consent_given: true, prolific_pid: pid },
      entry: 'questions',
      baseline: 4,
      pre: { age: '25-34', sex: 'female', political_leaning: 'moderate' },
      chat: [{ role: 'assistant', content: 'Hello! What would you like to know?' }],
    });
  const rows = [
    participant(experimentId, 'PID-A'),
    participant(experimentId, 'PID-B'),
    participant(otherExperimentId, 'PID-C'),
  ];
  await insertParticipantRows(db, rows);
  const [a, b, c] = rows.map((r) => ({ id: String(r.user.id), email: r.user.email }));
  if (!a || !b || !c) throw new Error('participants missing');
  const analyst = await insertUserRow(db, { role: 'analyst' });
  const admin = await insertUserRow(db, { is_admin: true, role: 'admin' });
  const memberAdmins = {
    owner: await insertUserRow(db, { is_admin: true, role: 'admin' }),
    editor: await insertUserRow(db, { is_admin: true, role: 'admin' }),
    viewer: await insertUserRow(db, { is_admin: true, role: 'admin' }),
    outsider: await insertUserRow(db, { is_admin: true, role: 'admin' }),
  };
  if (membersOnly) {
    for (const role of ['owner', 'editor', 'viewer'] as const) {
      await insertMemberRow(db, experimentId, String(memberAdmins[role].id), role);
    }
  }
  const adminSession = (row: { id: unknown; email: string }) =>
    newSession(t, { id: String(row.id), email: row.email }, 'admin');
  return {
    experimentId,
    otherExperimentId,
    users: {
      A: await newSession(t, a, 'participant'),
      B: await newSession(t, b, 'participant'),
      C: await newSession(t, c, 'participant'),
      analyst: await newSession(t, { id: String(analyst.id), email: analyst.email }, 'analyst'),
      admin: await adminSession(admin),
      owner: await adminSession(memberAdmins.owner),
      editor: await adminSession(memberAdmins.editor),
      viewer: await adminSession(memberAdmins.viewer),
      outsider: await adminSession(memberAdmins.outsider),
    },
    threadOfA: String(rows[0]?.thread?.id),
  };
}

describe.each(TEST_DIALECTS)('authorisation matrix on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('has exactly one row for every API route the app registers', () => {
    const registered = [...t().app.apiRoutes].sort();
    expect(registered.length).toBeGreaterThan(30);
    const missing = registered.filter((r) => !(r in MATRIX));
    expect(missing, 'routes without a row in the authorisation matrix: add one').toEqual([]);
    const stale = Object.keys(MATRIX).filter((r) => !registered.includes(r));
    expect(stale, 'rows for routes that do not exist').toEqual([]);
  });

  it('has the four member callers for every route that names an experiment or is scoped to them, and only those', () => {
    expect(SCOPED_IN_QUERIES.filter((r) => !MATRIX[r]?.members)).toEqual([]);
    const scoped = Object.keys(EXPERIMENT_ROUTES).sort();
    expect(
      scoped.filter((r) => !t().app.apiRoutes.includes(r)),
      'access rules for routes that do not exist',
    ).toEqual([]);
    expect(
      scoped.filter((r) => !MATRIX[r]?.members),
      'experiment routes without member callers: add them',
    ).toEqual([]);
    const extra = Object.entries(MATRIX).filter(
      ([r, row]) => row.members && !scoped.includes(r) && !SCOPED_IN_QUERIES.includes(r),
    );
    expect(
      extra.map(([r]) => r),
      'member callers on a route that names no experiment',
    ).toEqual([]);
  });

  it.each(Object.entries(MATRIX))('%s', async (key, row) => {
    const method = key.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'DELETE';
    const actual: number[] = [];
    const expected = [...row.expect, ...(row.members ?? MEMBER_CALLERS.map(() => row.expect[5]))];
    for (const who of CALLERS) {
      const world = await seedWorld(t(), MEMBER_CALLERS.includes(who));
      const { url, body } = row.request(world);
      const res = await t().app.inject({
        method,
        url,
        headers: who === 'anonymous' ? {} : world.users[who].headers,
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      actual.push(res.statusCode);
    }
    expect(Object.fromEntries(CALLERS.map((who, i) => [who, actual[i]]))).toEqual(
      Object.fromEntries(CALLERS.map((who, i) => [who, expected[i]])),
    );
  });
});
