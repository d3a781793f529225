import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SERVER_BUNDLE_OPTIONS } from './bundle-options.js';

// `npm run build -w @studychat/server`: bundles the server and its commands into apps/server/dist, so
// production runs plain `node` (no TypeScript loader, no dev dependencies; the Docker image ships only
// dist/ and the server's production dependencies). Our own code and the contracts (TypeScript source) are
// bundled; every npm dependency stays external and is loaded from node_modules as usual. All files land
// directly in dist/, the same depth as src/, so paths.ts finds the repository root from either.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverDir, 'dist');

/** Bundle name -> source: the server and the commands that run inside the Docker image. */
export const ENTRY_POINTS = {
  main: 'src/main.ts',
  migrate: 'src/cli/migrate.ts',
  'create-admin': 'src/cli/create-admin.ts',
  demo: 'src/cli/demo.ts',
  'model-check': 'src/cli/model-check.ts',
  backup: 'src/cli/backup.ts',
  restore: 'src/cli/restore.ts',
};

const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@studychat/'));

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: serverDir,
  entryPoints: ENTRY_POINTS,
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  ...SERVER_BUNDLE_OPTIONS,
  external,
  metafile: true,
  logLevel: 'warning',
});

// Anything from node_modules inside the bundle means a dependency is missing from package.json.
const bundledPackages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
if (bundledPackages.length > 0) {
  console.error(`Bundled npm code (declare these in apps/server/package.json):\n  ${bundledPackages.join('\n  ')}`);
  process.exit(1);
}
console.log(`Server bundled into ${path.relative(process.cwd(), outdir) || 'dist'}`);
