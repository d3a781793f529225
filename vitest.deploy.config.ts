import { defineConfig } from 'vitest/config';

// `npm run test:deploy`: the production start script as a deployment runs it (separate from the unit
// tests: it starts real processes on a fixed port and needs the built app, which `npm start` builds if stale).
export default defineConfig({
  test: {
    name: 'deploy',
    include: ['scripts/smoke/*.smoke.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
