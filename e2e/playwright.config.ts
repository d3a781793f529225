import { defineConfig, devices } from '@playwright/test';

// The real server on a temporary data folder (SQLite, scripted model), serving the built web app.
// Run `npm run build` first (the root `test:e2e` script does).
const port = Number(process.env.E2E_PORT ?? 4173);
/**
 * Where the test server finds "Prolific": a closed port, except while the launch spec's fake Prolific listens on it
 * (tests/prolific-launch.spec.ts), so nothing ever leaves this machine.
 */
export const FAKE_PROLIFIC_PORT = port + 20_000;
/** The same port, as prolific-review-pay.spec.ts names it: its fake Prolific listens there while it runs. */
export const PROLIFIC_FAKE_PORT = FAKE_PROLIFIC_PORT;
export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-password-123';

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium } }],
  webServer: {
    command: `sh -c 'DATA_DIR=$(mktemp -d) exec npx tsx ../apps/server/src/main.ts'`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // NODE_ENV=test with TEST_CLOCK=manual: the tests move the server clock past the sections' minimum
    // seconds instead of waiting (docs/decisions/0011); the built web app is served as in production.
    env: {
      // Only these settings: a developer's own .env (say, a DATABASE_URL) must not reach the test server.
      ENV_FILE: '/dev/null',
      NODE_ENV: 'test',
      TEST_CLOCK: 'manual',
      WEB_DIST_DIR: 'apps/web/dist',
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      LLM_PROVIDER: 'scripted',
      // Never Prolific itself: a closed port here, so a token set by a test reaches nothing (decision 0083), except
      // the fake Prolific the launch spec starts on it while it runs (decision 0090).
      PROLIFIC_API_URL: `http://127.0.0.1:${FAKE_PROLIFIC_PORT}`,
    },
  },
});
