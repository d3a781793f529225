import type { Migration } from 'kysely';
import * as initial from './2026-11-20-initial.js';
import * as chatLimits from './2026-11-23-11-chat-limits.js';
import * as loginThrottles from './2026-11-23-12-login-throttles.js';
import * as adminSecurity from './2026-11-23-12-admin-security.js';
import * as monitor from './2026-11-23-10-monitor.js';
import * as studyLogins from './2026-11-23-15-study-logins.js';
import * as journey from './2026-11-23-9-journey.js';
import * as prolificOnce from './2026-11-23-9-prolific-once.js';
import * as interventionCompleteOnly from './2026-11-23-9-intervention-complete-only.js';
import * as studyVersions from './2026-11-24-14-study-versions.js';
import * as withdrawnProlificIds from './2026-11-25-13-withdrawn-prolific-ids.js';
import * as completionCodes from './2026-11-25-14b-completion-codes.js';
import * as previewLinks from './2026-11-25-14b-preview-links.js';
import * as spending from './2026-11-27-10-spending.js';
import * as flowSteps from './2026-11-28-10-flow-steps.js';
import * as chatCost from './2026-11-29-10-chat-cost.js';
import * as experimentLifecycle from './2026-11-30-20-experiment-lifecycle.js';
import * as prolific from './2026-11-30-40-prolific.js';
import * as pilotRuns from './2026-11-30-50-pilot-runs.js';
import * as prolificLinkJoin from './2026-12-01-10-prolific-link-join.js';
import * as waves from './2026-12-02-40-waves.js';
import * as experimentMembers from './2026-12-01-20-experiment-members.js';
import * as prolificLaunches from './2026-12-02-30-prolific-launches.js';
import * as prolificBonuses from './2026-12-02-20-prolific-bonuses.js';

/** Every migration, keyed by a date-prefixed name; Kysely runs them in name order. */
export const migrations: Record<string, Migration> = {
  '2026-11-20-initial': initial,
  '2026-11-23-10-monitor': monitor,
  '2026-11-23-11-chat-limits': chatLimits,
  '2026-11-23-12-login-throttles': loginThrottles,
  '2026-11-23-12-admin-security': adminSecurity,
  '2026-11-23-15-study-logins': studyLogins,
  '2026-11-23-9-intervention-complete-only': interventionCompleteOnly,
  '2026-11-23-9-journey': journey,
  '2026-11-23-9-prolific-once': prolificOnce,
  '2026-11-24-14-study-versions': studyVersions,
  '2026-11-25-13-withdrawn-prolific-ids': withdrawnProlificIds,
  '2026-11-25-14b-completion-codes': completionCodes,
  '2026-11-25-14b-preview-links': previewLinks,
  '2026-11-27-10-spending': spending,
  '2026-11-28-10-flow-steps': flowSteps,
  '2026-11-29-10-chat-cost': chatCost,
  '2026-11-30-20-experiment-lifecycle': experimentLifecycle,
  '2026-11-30-40-prolific': prolific,
  '2026-11-30-50-pilot-runs': pilotRuns,
  '2026-12-01-10-prolific-link-join': prolificLinkJoin,
  '2026-12-01-20-experiment-members': experimentMembers,
  '2026-12-02-20-prolific-bonuses': prolificBonuses,
  '2026-12-02-30-prolific-launches': prolificLaunches,
  '2026-12-02-40-waves': waves,
};
