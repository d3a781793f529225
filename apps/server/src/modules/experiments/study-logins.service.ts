import type { StudyLoginsReply } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { findExperimentById } from './experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from './experiments.service.js';
import { toStudyLogin } from './study-login.mapper.js';
import { listStudyLoginRows } from './study-logins.repository.js';

/**
 * The experiment's study logins with used and unused counts (passwords are never stored in clear). A revoked login
 * is not unused: it cannot be handed out again.
 */
export async function listStudyLogins(deps: AppDeps, experimentId: string): Promise<StudyLoginsReply> {
  const { db } = deps.database;
  if (!(await findExperimentById(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const logins = (await listStudyLoginRows(db, experimentId)).map(toStudyLogin);
  const unused = logins.filter((l) => l.status === 'unused').length;
  return { total: logins.length, used: logins.length - unused, unused, logins };
}
