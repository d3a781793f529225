import { parseArgs } from 'node:util';
import { z } from 'zod';
import { defaultDeps } from '../default-deps.js';
import { AppError } from '../lib/errors.js';
import { generatePassword } from '../modules/users/password.js';
import { createUser } from '../modules/users/users.service.js';
import { openForCli } from './load-config.js';

// `npm run admin:create -- --email someone@lab.org [--password ...] [--analyst]`: adds an admin account, or
// with --analyst a read-only one (views and exports, no edits, no study logins). Without --password a
// strong one is generated and printed once.
const USAGE = 'Usage: npm run admin:create -- --email <email> [--password <at least 12 characters>] [--analyst]';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    analyst: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const email = z.email().safeParse(values.email);
if (!email.success) {
  console.error(`A valid --email is required.\n${USAGE}`);
  process.exit(1);
}
if (values.password !== undefined && values.password.length < 12) {
  console.error(`--password must be at least 12 characters.\n${USAGE}`);
  process.exit(1);
}

const { database } = await openForCli();
try {
  const password = values.password ?? generatePassword(24);
  const analyst = values.analyst === true;
  const user = await createUser(defaultDeps(database), {
    email: email.data,
    password,
    isAdmin: !analyst,
    role: analyst ? 'analyst' : undefined,
  });
  console.log(`Created ${analyst ? 'analyst (read-only)' : 'admin'} ${user.email}`);
  if (!values.password) console.log(`  password: ${password}\n  (shown only now: store it in a password manager)`);
} catch (error) {
  console.error(error instanceof AppError ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
