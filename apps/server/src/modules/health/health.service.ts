import type { ReadyReply } from '@studychat/contracts';
import type { LlmConfig } from '../../config.js';
import { pendingMigrations } from '../../db/migrator.js';
import type { AppDeps } from '../../lib/deps.js';

/** Whether the configured chat model can be called: a key (or, for OpenAI-compatible servers, an endpoint). */
export function isModelConfigured(
  llm: Pick<LlmConfig, 'provider' | 'anthropicApiKey' | 'openaiApiKey' | 'openaiBaseUrl'>,
): boolean {
  switch (llm.provider) {
    case 'anthropic':
      return Boolean(llm.anthropicApiKey);
    case 'openai':
      return Boolean(llm.openaiApiKey ?? llm.openaiBaseUrl);
    case 'scripted':
      return true;
  }
}

/**
 * Readiness to serve participants: the database answers, every migration this server knows is applied,
 * and the chat model is configured. A failing check is reported as false, never thrown.
 */
export async function readiness(deps: AppDeps, llm: LlmConfig): Promise<ReadyReply> {
  const database = await deps.database.ping();
  const migrations =
    database &&
    (await pendingMigrations(deps.database.db).then(
      (p) => p.length === 0,
      () => false,
    ));
  const model = isModelConfigured(llm);
  return { status: database && migrations && model ? 'ready' : 'not_ready', checks: { database, migrations, model } };
}
