import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { SERVER_BUNDLE_OPTIONS } from '../../scripts/bundle-options.js';

// The journey bench measures the server as production runs it: bundled by esbuild with the production build's
// settings (scripts/bundle-options.ts) and run by plain `node`, not through the TypeScript loader (tsx), whose transform
// keeps every function's name at run time and whose loader hooks cost CPU the production server never spends
// (docs/decisions/0069). Our code and the contracts are bundled; every npm package is loaded from node_modules.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Beside src/ (the same depth), so paths.ts finds the repository root as it does from src/ and dist/. */
export const BENCH_BUILD_DIR = path.join(serverDir, 'dist-bench');

const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@studychat/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles a bench server script (bench/journey/server.ts by default; `npm run bench` also bundles
 * bench/app-server.ts) as `<name>.js`; returns the path of the script to run with `node`.
 */
export async function buildBenchServer(entry = 'bench/journey/server.ts', name = 'journey-server'): Promise<string> {
  await build({
    absWorkingDir: serverDir,
    entryPoints: { [name]: entry },
    outdir: BENCH_BUILD_DIR,
    ...SERVER_BUNDLE_OPTIONS,
    plugins: [npmPackagesExternal],
    logLevel: 'warning',
  });
  return path.join(BENCH_BUILD_DIR, `${name}.js`);
}
