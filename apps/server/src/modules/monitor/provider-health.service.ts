import type { ProviderHealthReply } from '@studychat/contracts';
import { notFound } from '../../lib/errors.js';
import type { AppDeps } from '../../lib/deps.js';
import { findMonitorSettings } from './monitor.repository.js';
import { listRecentReplies } from './provider-health.repository.js';
import { PROVIDER_HEALTH_MINUTES, providerHealth } from './provider-health.js';

/** The provider's health for the experiment's replies over the monitor's periods; 404 for an unknown experiment. */
export async function getProviderHealth(deps: AppDeps, experimentId: string): Promise<ProviderHealthReply> {
  if (!(await findMonitorSettings(deps.database.db, experimentId))) throw notFound('Experiment not found');
  const now = deps.clock();
  const since = new Date(now.getTime() - PROVIDER_HEALTH_MINUTES * 60_000).toISOString();
  return providerHealth(await listRecentReplies(deps.database.db, experimentId, since), now);
}
