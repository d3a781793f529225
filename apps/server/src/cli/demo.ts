import { randomInt } from 'node:crypto';
import { defaultDeps } from '../default-deps.js';
import { generateCredentials } from '../modules/experiments/credentials.service.js';
import { createExperiment, updateCompletionCodes } from '../modules/experiments/experiments.service.js';
import { openForCli } from './load-config.js';

// `npm run demo`: a demo experiment with its three completion codes and ten study logins, in the database
// the server is configured for (the same .env and environment as `npm start`: DATA_DIR or DATABASE_URL),
// with one ready-to-open landing link per login on PUBLIC_URL (default http://localhost:PORT).
const LOGINS = 10;

function demoPid(): string {
  const digits = Array.from({ length: 8 }, () => randomInt(10)).join('');
  return `DEMO${digits}`;
}

/** True when a StudyChat server answers its health check at `base`. */
async function serverAnswers(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

const { config, database } = await openForCli();
try {
  const deps = defaultDeps(database);
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const experiment = await createExperiment(deps, {
    name: `Demo study (${stamp} UTC)`,
    description: 'Created by npm run demo: MMR vaccine information vs. rear-facing car seats, with an AI chat.',
  });
  const suffix = experiment.id.slice(0, 4).toUpperCase();
  const { codes } = await updateCompletionCodes(deps, experiment.id, {
    complete: `DEMO-COMPLETE-${suffix}`,
    exitnoqualms: `DEMO-NOQUALMS-${suffix}`,
    exitceiling: `DEMO-CEILING-${suffix}`,
  });
  const logins = await generateCredentials(deps, config.passwordPepper, experiment.id, LOGINS, 'npm run demo');

  const base = config.publicUrl;
  console.log(`Demo experiment: ${experiment.name}`);
  console.log(`  id:               ${experiment.id}`);
  console.log(
    `  completion codes: complete ${codes.complete}, confirm ${codes.exitnoqualms}, ceiling ${codes.exitceiling}`,
  );
  console.log(`\n${LOGINS} study logins (passwords are shown only now), each with its own landing link:\n`);
  for (const [i, login] of logins.entries()) {
    const link = `${base}/prolific?PROLIFIC_PID=${demoPid()}&EXPERIMENT_ID=${experiment.id}`;
    console.log(`${String(i + 1).padStart(2)}. ${login.email}  ${login.password}\n    ${link}`);
  }
  console.log(`\nAdmins see the experiment at ${base}/admin/experiments/${experiment.id}`);
  if (!(await serverAnswers(base))) {
    console.log(`No server answers at ${base} yet: start it with \`npm start\` (it reads the same settings).`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
