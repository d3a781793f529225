import { readFileSync } from 'node:fs';
import path from 'node:path';

// Summarises a V8 CPU profile (`npm run bench:journey -- --profile DIR`): self time by package or source
// module and by function, the biggest first, as a share of the profile's busy (non-idle) time.
//   npx tsx bench/journey/profile-summary.ts DIR/journey-sqlite.cpuprofile [top=40]
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top]');
const top = Number(process.argv[3] ?? '40');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

/** A package (node_modules/<name>), a file of ours (src/...), node's own (node:...) or V8's (program, gc). */
function moduleOf(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/apps/server/');
  return src >= 0 ? url.slice(src + '/apps/server/'.length) : path.basename(url);
}

const modules = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
let idle = 0;
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') {
    idle += us;
    continue;
  }
  busy += us;
  const mod = url ? moduleOf(url) : functionName;
  modules.set(mod, (modules.get(mod) ?? 0) + us);
  const fn = `${functionName || '(anonymous)'} ${url ? `${moduleOf(url)}:${lineNumber + 1}` : ''}`;
  functions.set(fn, (functions.get(fn) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
};
console.log(`busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms`);
print('self time by module', modules);
print('self time by function', functions);
