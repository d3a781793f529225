import type { BuildOptions } from 'esbuild';

/**
 * How the server is bundled for production (scripts/build.ts), shared with the journey bench, which measures
 * the server built the same way (bench/journey/build-server.ts).
 */
export const SERVER_BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
} as const satisfies BuildOptions;
