/** Domain of generated study logins (study-k3m9x2pq@studychat.local). */
export const STUDY_LOGIN_DOMAIN = 'studychat.local';

/** True for an address shaped like a generated study login (whether or not it exists). */
export function looksLikeStudyLogin(email: string): boolean {
  return email.toLowerCase().endsWith(`@${STUDY_LOGIN_DOMAIN}`);
}
