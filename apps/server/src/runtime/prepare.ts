import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { defaultDeps } from '../default-deps.js';
import { checkModel, createCheckModel } from '../llm/model-check.js';
import { ensureDefaultStudyVersion } from '../modules/studies/studies.service.js';
import { bootstrapAdmin } from '../modules/users/users.service.js';

export const SCRIPTED_MODEL_WARNING =
  'LLM_PROVIDER=scripted: NO REAL AI MODEL IS CONNECTED. The chat answers with the scripted offline model. Do not run a live study like this.';

/**
 * What runs once per start, before any server process listens (in the cluster's primary when WORKERS > 1):
 * migrations, then the first admin on an empty database, then the start-up notices.
 */
export async function prepareDatabase(config: AppConfig, database: Database): Promise<void> {
  await migrateToLatest(database.db);
  await ensureDefaultStudyVersion(database.db, new Date().toISOString());
  const bootstrap = await bootstrapAdmin(defaultDeps(database), {
    email: config.adminEmail,
    password: config.adminPassword,
    dataDir: config.dataDir,
  });
  if (bootstrap.created && bootstrap.generatedPassword) {
    // Printed once, on purpose: this is the only way to learn the generated password besides the 0600 file.
    console.log(
      `\nCreated admin account ${bootstrap.email}\n  password: ${bootstrap.generatedPassword}\n  (also saved to ${bootstrap.passwordFile}, readable only by you)\n`,
    );
  } else if (bootstrap.created) {
    console.log(`Created admin account ${bootstrap.email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  }
  if (config.llm.provider === 'scripted') console.warn(`\n*** ${SCRIPTED_MODEL_WARNING} ***\n`);
  const generated = [
    ...(config.jwtSecretSource === 'generated' ? ['jwt-secret (JWT_SECRET)'] : []),
    ...(config.passwordPepperSource === 'generated' ? ['password-pepper (PASSWORD_PEPPER)'] : []),
  ];
  if (config.databaseUrl && generated.length > 0) {
    console.warn(
      `Note: ${generated.join(' and ')} ${generated.length === 1 ? 'was' : 'were'} generated in ${config.dataDir}. Any other server process sharing this PostgreSQL database must use the same values: set them for all of them. Keep them with your backups: study logins need the pepper.`,
    );
  }
}

/**
 * A wrong key, model name or an empty account should show now, not when a participant chats: one small
 * request to the model, once per start (in the primary), not awaited, so the server serves meanwhile.
 */
export function checkModelInBackground(config: AppConfig): void {
  const { llm } = config;
  if (llm.provider === 'scripted') return;
  void checkModel(createCheckModel(llm), llm).then((result) => {
    if (result.ok) return;
    console.warn(
      `\n*** The AI model check failed: ${result.message} ***\n(Run npm run model:check after fixing it.)\n`,
    );
  });
}
