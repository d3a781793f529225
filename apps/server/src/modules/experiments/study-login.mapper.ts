import type { StudyLogin, StudyLoginStatus } from '@studychat/contracts';
import { toIso, toIsoOrNull } from '../../db/values.js';
import type { StudyLoginRow } from './study-logins.repository.js';

/** Revoked above all; used means joined or logged in: completed, then joined, then logged in, else unused. */
export function studyLoginStatus(
  row: Pick<StudyLoginRow, 'assignment_id' | 'completed_at' | 'last_login_at'> & {
    disabled_at?: StudyLoginRow['disabled_at'] | undefined;
  },
): StudyLoginStatus {
  if (row.disabled_at) return 'revoked';
  if (row.completed_at) return 'completed';
  if (row.assignment_id) return 'joined';
  if (row.last_login_at) return 'logged_in';
  return 'unused';
}

/** The one place a study-login row becomes the API's StudyLogin. */
export function toStudyLogin(row: StudyLoginRow): StudyLogin {
  return {
    email: row.email,
    batch_id: row.batch_id,
    created_at: toIso(row.created_at),
    last_login_at: toIsoOrNull(row.last_login_at),
    prolific_pid: row.prolific_pid ?? null,
    status: studyLoginStatus(row),
  };
}
