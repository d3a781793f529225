import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web',
    root: './apps/web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // jsdom pages with hundreds of rows take seconds on a loaded 2-core machine: a ceiling, not a timing check.
    testTimeout: 20_000,
  },
});
