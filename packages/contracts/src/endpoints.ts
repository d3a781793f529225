// Method and path of every route, without zod at run time: the web app calls these, and the type of
// each one points at its route object, so request and reply types still come from the one contract.
// endpoints.test.ts checks that every route object has its endpoint here, with the same method and path.
import type { RouteDef } from './route.js';
import type { authRoutes } from './auth.js';
import type { healthRoutes } from './health.js';
import type { experimentRoutes } from './experiments.js';
import type { participantRoutes } from './participants.js';
import type { surveyRoutes } from './surveys.js';
import type { chatRoutes } from './chat.js';
import type { journeyRoutes } from './journey.js';
import type { adminRoutes } from './admin.js';
import type { securityRoutes } from './security.js';
import type { staffRoutes } from './staff.js';
import type { monitorRoutes } from './monitor.js';
import type { costEstimateRoutes } from './cost-estimate.js';
import type { providerHealthRoutes } from './provider-health.js';
import type { studyRoutes } from './studies.js';
import type { previewRoutes } from './preview.js';
import type { flowRoutes } from './flow-journey.js';
import type { prolificJoinRoutes, prolificRoutes } from './prolific.js';
import type { prolificLaunchRoutes } from './prolific-launch.js';
import type { prolificPayRoutes } from './prolific-pay.js';
import type { pilotRoutes } from './pilot.js';
import type { memberRoutes } from './members.js';
import type { waveRoutes } from './waves.js';

export interface Endpoint<R extends RouteDef> {
  method: R['method'];
  path: R['path'];
  /** Type-only link to the route object. */
  readonly __route?: R;
}

function endpoint<R extends RouteDef>(method: R['method'], path: R['path']): Endpoint<R> {
  return { method, path };
}

type A = typeof authRoutes;
type H = typeof healthRoutes;
type E = typeof experimentRoutes;
type P = typeof participantRoutes;
type S = typeof surveyRoutes;
type C = typeof chatRoutes;
type D = typeof adminRoutes;
type Y = typeof securityRoutes;
type J = typeof journeyRoutes;
type M = typeof monitorRoutes;
type K = typeof costEstimateRoutes;
type G = typeof providerHealthRoutes;
type V = typeof studyRoutes;
type W = typeof previewRoutes;
type F = typeof flowRoutes;
type Staff = typeof staffRoutes;
type R = typeof prolificRoutes;
type RJ = typeof prolificJoinRoutes;
type RL = typeof prolificLaunchRoutes;
type RP = typeof prolificPayRoutes;
type X = typeof pilotRoutes;
type Mem = typeof memberRoutes;
type Wave = typeof waveRoutes;

export const endpoints = {
  auth: {
    login: endpoint<A['login']>('POST', '/api/auth/login'),
    logout: endpoint<A['logout']>('POST', '/api/auth/logout'),
    health: endpoint<A['health']>('GET', '/api/health'),
  },
  health: {
    ready: endpoint<H['ready']>('GET', '/api/ready'),
  },
  experiments: {
    list: endpoint<E['list']>('GET', '/api/experiments'),
    create: endpoint<E['create']>('POST', '/api/experiments'),
    get: endpoint<E['get']>('GET', '/api/experiments/:id'),
    update: endpoint<E['update']>('PUT', '/api/experiments/:id'),
    setState: endpoint<E['setState']>('PUT', '/api/experiments/:id/state'),
    remove: endpoint<E['remove']>('DELETE', '/api/experiments/:id'),
    revokeLogin: endpoint<E['revokeLogin']>('POST', '/api/experiments/:id/logins/revoke'),
    quotas: endpoint<E['quotas']>('GET', '/api/experiments/:id/quotas'),
    updateQuotas: endpoint<E['updateQuotas']>('PUT', '/api/experiments/:id/quotas'),
    updateCodes: endpoint<E['updateCodes']>('PUT', '/api/experiments/:id/completion-codes'),
    batchCredentials: endpoint<E['batchCredentials']>('POST', '/api/experiments/:id/batch-credentials'),
    logins: endpoint<E['logins']>('GET', '/api/experiments/:id/logins'),
    completionCode: endpoint<E['completionCode']>('GET', '/api/experiments/:id/completion-code'),
    participantSummary: endpoint<E['participantSummary']>('GET', '/api/experiments/:id/participant-summary'),
    participantsDetailed: endpoint<E['participantsDetailed']>('GET', '/api/experiments/:id/participants-detailed'),
    chatLimits: endpoint<E['chatLimits']>('GET', '/api/experiments/:id/chat-limits'),
    updateChatLimits: endpoint<E['updateChatLimits']>('PUT', '/api/experiments/:id/chat-limits'),
    exportFile: endpoint<E['exportFile']>('GET', '/api/experiments/:id/export/:file'),
    exportPackage: endpoint<E['exportPackage']>('GET', '/api/experiments/:id/export-package'),
    exportTranscripts: endpoint<E['exportTranscripts']>('GET', '/api/experiments/:id/export-transcripts'),
    withdraw: endpoint<E['withdraw']>('POST', '/api/experiments/:id/withdrawals'),
    exportSpreadsheet: endpoint<E['exportSpreadsheet']>('GET', '/api/experiments/:id/export-spreadsheet'),
  },
  participants: {
    create: endpoint<P['create']>('POST', '/api/participants'),
    get: endpoint<P['get']>('GET', '/api/participants/:userId/:experimentId'),
    consent: endpoint<P['consent']>('POST', '/api/participants/consent'),
    prolificId: endpoint<P['prolificId']>('PUT', '/api/participants/prolific-id'),
    assignCondition: endpoint<P['assignCondition']>('POST', '/api/participants/assign-condition'),
    completion: endpoint<P['completion']>('POST', '/api/participants/completion'),
    status: endpoint<P['status']>('GET', '/api/participants/status/:experimentId'),
    admission: endpoint<P['admission']>('GET', '/api/participants/admission/:experimentId'),
  },
  journey: {
    get: endpoint<J['get']>('GET', '/api/participants/journey/:experimentId'),
    openSection: endpoint<J['openSection']>('POST', '/api/participants/sections/open'),
    finishSection: endpoint<J['finishSection']>('POST', '/api/participants/sections/finish'),
  },
  monitor: {
    get: endpoint<M['get']>('GET', '/api/experiments/:id/monitor'),
    updateSettings: endpoint<M['updateSettings']>('PUT', '/api/experiments/:id/monitor/settings'),
    stream: endpoint<M['stream']>('GET', '/api/experiments/:id/monitor/stream'),
    heartbeat: endpoint<M['heartbeat']>('POST', '/api/participants/heartbeat'),
  },
  costEstimate: {
    get: endpoint<K['get']>('GET', '/api/experiments/:id/cost-estimate'),
  },
  providerHealth: {
    get: endpoint<G['get']>('GET', '/api/experiments/:id/monitor/provider-health'),
  },
  surveys: {
    submit: endpoint<S['submit']>('POST', '/api/surveys'),
  },
  chat: {
    initiate: endpoint<C['initiate']>('POST', '/api/chat/initiate'),
    initialMessage: endpoint<C['initialMessage']>('GET', '/api/chat/threads/:threadId/initial-message'),
    sendMessage: endpoint<C['sendMessage']>('POST', '/api/chat/threads/:threadId/messages'),
    messages: endpoint<C['messages']>('GET', '/api/chat/threads/:threadId/messages'),
    pasteBlocked: endpoint<C['pasteBlocked']>('POST', '/api/chat/paste-blocked'),
  },
  admin: {
    users: endpoint<D['users']>('GET', '/api/admin/users'),
    user: endpoint<D['user']>('GET', '/api/admin/users/:id'),
    threads: endpoint<D['threads']>('GET', '/api/admin/users/:id/threads'),
    threadMessages: endpoint<D['threadMessages']>('GET', '/api/admin/users/:id/threads/:threadId/messages'),
    assignments: endpoint<D['assignments']>('GET', '/api/admin/users/:id/assignments'),
    surveyResponses: endpoint<D['surveyResponses']>('GET', '/api/admin/users/:id/survey-responses'),
    system: endpoint<D['system']>('GET', '/api/admin/system'),
    modelCheck: endpoint<D['modelCheck']>('POST', '/api/admin/model-check'),
  },
  staff: {
    list: endpoint<Staff['list']>('GET', '/api/admin/staff'),
    create: endpoint<Staff['create']>('POST', '/api/admin/staff'),
    setRole: endpoint<Staff['setRole']>('PUT', '/api/admin/staff/:id/role'),
    remove: endpoint<Staff['remove']>('DELETE', '/api/admin/staff/:id'),
    resetTotp: endpoint<Staff['resetTotp']>('POST', '/api/admin/staff/:id/totp-reset'),
  },
  security: {
    status: endpoint<Y['status']>('GET', '/api/auth/security'),
    totpSetup: endpoint<Y['totpSetup']>('POST', '/api/auth/totp/setup'),
    totpEnable: endpoint<Y['totpEnable']>('POST', '/api/auth/totp/enable'),
    totpDisable: endpoint<Y['totpDisable']>('POST', '/api/auth/totp/disable'),
    logoutAll: endpoint<Y['logoutAll']>('POST', '/api/auth/logout-all'),
    auditLog: endpoint<Y['auditLog']>('GET', '/api/admin/audit-log'),
  },
  studies: {
    list: endpoint<V['list']>('GET', '/api/admin/study-versions'),
    get: endpoint<V['get']>('GET', '/api/admin/study-versions/:id'),
    create: endpoint<V['create']>('POST', '/api/admin/study-versions'),
    update: endpoint<V['update']>('PUT', '/api/admin/study-versions/:id'),
    remove: endpoint<V['remove']>('DELETE', '/api/admin/study-versions/:id'),
    check: endpoint<V['check']>('POST', '/api/admin/study-versions/check'),
    clone: endpoint<V['clone']>('POST', '/api/admin/study-versions/:id/clone'),
    pin: endpoint<V['pin']>('PUT', '/api/experiments/:id/study-version'),
    participantView: endpoint<V['participantView']>('GET', '/api/participants/study/:experimentId'),
  },
  flow: {
    view: endpoint<F['view']>('GET', '/api/participants/flow/:experimentId'),
    submit: endpoint<F['submit']>('POST', '/api/participants/flow/:experimentId/steps/:stepId'),
    generate: endpoint<F['generate']>('POST', '/api/participants/flow/:experimentId/steps/:stepId/generate'),
    progress: endpoint<F['progress']>('GET', '/api/experiments/:id/flow-progress'),
    codes: endpoint<F['codes']>('GET', '/api/experiments/:id/flow-codes'),
    updateCodes: endpoint<F['updateCodes']>('PUT', '/api/experiments/:id/flow-codes'),
  },
  prolific: {
    connection: endpoint<R['connection']>('GET', '/api/admin/prolific'),
    save: endpoint<R['save']>('PUT', '/api/admin/prolific'),
    clear: endpoint<R['clear']>('DELETE', '/api/admin/prolific'),
    test: endpoint<R['test']>('POST', '/api/admin/prolific/test'),
    studyLink: endpoint<R['studyLink']>('GET', '/api/experiments/:id/prolific-study'),
    setStudyLink: endpoint<R['setStudyLink']>('PUT', '/api/experiments/:id/prolific-study'),
    approve: endpoint<R['approve']>('POST', '/api/experiments/:id/prolific/approve'),
    webhook: endpoint<R['webhook']>('POST', '/api/prolific/webhooks'),
  },
  prolificPay: {
    reject: endpoint<RP['reject']>('POST', '/api/experiments/:id/prolific/reject'),
    bonuses: endpoint<RP['bonuses']>('GET', '/api/experiments/:id/prolific/bonuses'),
    prepareBonus: endpoint<RP['prepareBonus']>('POST', '/api/experiments/:id/prolific/bonuses'),
    payBonus: endpoint<RP['payBonus']>('POST', '/api/experiments/:id/prolific/bonuses/:batchId/pay'),
  },
  prolificJoin: {
    setting: endpoint<RJ['setting']>('GET', '/api/experiments/:id/prolific-link-join'),
    setSetting: endpoint<RJ['setSetting']>('PUT', '/api/experiments/:id/prolific-link-join'),
    join: endpoint<RJ['join']>('POST', '/api/prolific/join'),
  },
  prolificLaunch: {
    checklist: endpoint<RL['checklist']>('GET', '/api/experiments/:id/prolific/checklist'),
    launch: endpoint<RL['launch']>('POST', '/api/experiments/:id/prolific/launch'),
    publish: endpoint<RL['publish']>('POST', '/api/experiments/:id/prolific/publish'),
    sync: endpoint<RL['sync']>('POST', '/api/experiments/:id/prolific/sync'),
  },
  preview: {
    create: endpoint<W['create']>('POST', '/api/experiments/:id/previews'),
    redeem: endpoint<W['redeem']>('POST', '/api/preview/redeem'),
  },
  pilot: {
    start: endpoint<X['start']>('POST', '/api/experiments/:id/pilots'),
    list: endpoint<X['list']>('GET', '/api/experiments/:id/pilots'),
    get: endpoint<X['get']>('GET', '/api/experiments/:id/pilots/:pilotId'),
  },
  members: {
    list: endpoint<Mem['list']>('GET', '/api/experiments/:id/members'),
    add: endpoint<Mem['add']>('POST', '/api/experiments/:id/members'),
    setRole: endpoint<Mem['setRole']>('PUT', '/api/experiments/:id/members/:userId'),
    remove: endpoint<Mem['remove']>('DELETE', '/api/experiments/:id/members/:userId'),
  },
  waves: {
    setting: endpoint<Wave['setting']>('GET', '/api/experiments/:id/wave'),
    setSetting: endpoint<Wave['setSetting']>('PUT', '/api/experiments/:id/wave'),
    group: endpoint<Wave['group']>('GET', '/api/experiments/:id/prolific/participant-group'),
    makeGroup: endpoint<Wave['makeGroup']>('POST', '/api/experiments/:id/prolific/participant-group'),
  },
};
