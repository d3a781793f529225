import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { runPrimary } from './runtime/cluster-primary.js';
import { describeDatabase, loadConfigOrExit, openDatabase } from './runtime/load.js';
import { checkModelInBackground, prepareDatabase } from './runtime/prepare.js';
import { serve } from './runtime/serve.js';

// The server process: `npm start` runs the bundle of this file (apps/server/dist/main.js), as does the
// Docker image. WORKERS=1 serves in this process; WORKERS>1 makes this process the cluster's primary,
// which prepares the database once and then forks the workers (this same file, in worker mode).

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  if (cluster.isWorker) {
    await serve(config, openDatabase(config));
    return;
  }

  const database = openDatabase(config);
  await prepareDatabase(config, database);
  checkModelInBackground(config);
  if (config.workers > 1) {
    await database.close();
    runPrimary(config, fileURLToPath(import.meta.url));
    return;
  }
  const { address } = await serve(config, database);
  console.log(
    `StudyChat listening on ${address} (${describeDatabase(config)}${config.webDistDir ? '' : ', API only'})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
