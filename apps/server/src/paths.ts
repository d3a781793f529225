import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits in apps/server/src (or, bundled, in apps/server/dist): three levels below the repository
// root, which is also /app in the Docker image. Every command resolves relative paths from here, so
// `npm start`, `npm run demo` and `npm run admin:create` agree on one data folder wherever they are run.

/** The repository root: relative DATA_DIR, WEB_DIST_DIR and JWT_SECRET_FILE are resolved against it. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Where `npm run build` puts the web app. */
export const DEFAULT_WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');
/** The settings file every command reads (variables already set in the environment win). */
export const DEFAULT_ENV_FILE = path.join(REPO_ROOT, '.env');
