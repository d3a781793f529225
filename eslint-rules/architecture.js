// Lint rules for the code's shape (docs/ARCHITECTURE.md, "Rules of the code"):
// - server modules import one another without cycles, and never another module's repository;
// - the web app's features never import one another.
import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The part of `file` after `marker/`, split into folders ('' when the file is not under it). */
function under(file, marker) {
  const at = file.split(path.sep).join('/').lastIndexOf(`/${marker}/`);
  return at === -1
    ? null
    : file
        .split(path.sep)
        .join('/')
        .slice(at + marker.length + 2)
        .split('/');
}

function resolved(file, spec) {
  return path.normalize(path.join(path.dirname(file), spec));
}

const APP = /^app\.(ts|js)$/;
const isTest = (file) => /\.test\.tsx?$|[/\\]test-support\.tsx?$|\.test-utils\.tsx?$/.test(file);

/** The module a server file belongs to (`modules/<name>/...`), else null. */
function serverModule(file) {
  const parts = under(file, 'apps/server/src/modules');
  return parts && parts.length > 1 ? parts[0] : null;
}

/** Every module's imports of other modules, from the files on disk (read once per lint run). */
let graph = null;
function moduleGraph(modulesDir) {
  if (graph && graph.dir === modulesDir) return graph.edges;
  const edges = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !isTest(full)) {
        const from = serverModule(full);
        const text = fs.readFileSync(full, 'utf8');
        for (const match of text.matchAll(IMPORT)) {
          const to = serverModule(resolved(full, match[1] ?? match[2]));
          if (!from || !to || from === to) continue;
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from).add(to);
        }
      }
    }
  };
  walk(modulesDir);
  graph = { dir: modulesDir, edges };
  return edges;
}

/** A path of module imports from `start` back to `target`, or null. */
function pathBack(edges, start, target) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [node, trail] = stack.pop();
    if (node === target) return trail;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const next of edges.get(node) ?? []) stack.push([next, [...trail, next]]);
  }
  return null;
}

function importVisitor(context, check) {
  const visit = (node) => {
    const spec = node.source && typeof node.source.value === 'string' ? node.source.value : null;
    if (spec && spec.startsWith('.')) check(node, spec);
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
}

const noModuleCycle = {
  meta: { type: 'problem', schema: [], messages: { cycle: 'Module cycle: {{path}}. Move what both need below them.' } },
  create(context) {
    const file = context.filename;
    const from = serverModule(file);
    if (!from || isTest(file)) return {};
    const modulesDir = file.slice(0, file.split(path.sep).join('/').lastIndexOf('/modules/') + '/modules'.length);
    return importVisitor(context, (node, spec) => {
      const to = serverModule(resolved(file, spec));
      if (!to || to === from) return;
      const back = pathBack(moduleGraph(modulesDir), to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { path: [from, ...back].join(' -> ') } });
    });
  },
};

const noForeignRepository = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { foreign: 'Ask the {{owner}} module through its service, not its repository ({{spec}}).' },
  },
  create(context) {
    const file = context.filename;
    const from = serverModule(file);
    if (!from || isTest(file)) return {};
    return importVisitor(context, (node, spec) => {
      const target = resolved(file, spec);
      const owner = serverModule(target);
      if (owner && owner !== from && /\.repository(\.js)?$/.test(target)) {
        context.report({ node, messageId: 'foreign', data: { owner, spec } });
      }
    });
  },
};

const noCrossFeature = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { cross: 'features/{{from}} imports features/{{to}}: move what both need to components/ or lib/.' },
  },
  create(context) {
    const file = context.filename;
    const parts = under(file, 'apps/web/src/features');
    if (!parts || parts.length < 2 || isTest(file)) return {};
    return importVisitor(context, (node, spec) => {
      const target = under(resolved(file, spec), 'apps/web/src/features');
      if (target && target.length > 1 && target[0] !== parts[0]) {
        context.report({ node, messageId: 'cross', data: { from: parts[0], to: target[0] } });
      }
    });
  },
};

/** Files outside modules/ that modules build on must not import modules (app.ts registers them). */
const noUpwardImport = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { upward: '{{layer}}/ is below the modules: it must not import {{spec}}.' },
  },
  create(context) {
    const file = context.filename;
    const parts = under(file, 'apps/server/src');
    if (!parts || isTest(file) || !['lib', 'db', 'llm', 'modules'].includes(parts[0])) return {};
    return importVisitor(context, (node, spec) => {
      const target = under(resolved(file, spec), 'apps/server/src');
      if (!target) return;
      const upward =
        parts[0] === 'modules'
          ? APP.test(target[0] ?? '')
          : target[0] === 'modules' || APP.test(target[0] ?? '') || target[0] === 'plugins';
      if (upward) context.report({ node, messageId: 'upward', data: { layer: parts[0], spec } });
    });
  },
};

export default {
  rules: {
    'no-module-cycle': noModuleCycle,
    'no-foreign-repository': noForeignRepository,
    'no-cross-feature': noCrossFeature,
    'no-upward-import': noUpwardImport,
  },
};
