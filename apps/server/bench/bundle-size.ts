import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../web/dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  isDynamicEntry?: boolean;
}

export interface BundleFigure {
  page: string;
  gzipBytes: number;
}

function gz(file: string): number {
  return gzipSync(readFileSync(path.join(dist, file))).length;
}

/**
 * Initial JavaScript of participant pages: the entry chunk, its static imports, and the page's own
 * lazy chunk with its static imports (what the browser must load before the page shows).
 */
export function participantBundleSizes(): BundleFigure[] | null {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) return null;
  const base = new Set<string>();
  closure(entryKey, base);
  const size = (keys: Set<string>) => [...keys].reduce((sum, k) => sum + gz(manifest[k]?.file ?? ''), 0);
  const figures: BundleFigure[] = [{ page: 'entry (/)', gzipBytes: size(base) }];
  const flowPage = Object.keys(manifest).find((k) => /features\/study\/flow\/FlowRoutePage\.tsx$/.test(k));
  for (const [key, chunk] of Object.entries(manifest)) {
    const src = chunk.src ?? '';
    // A flow's chat and AI text steps are chunks of their own: each is a page of its own too, counted with the
    // flow page and everything they import (issue 30).
    if (flowPage && /features\/study\/flow\/steps\/\w+Step\.tsx$/.test(src) && chunk.isDynamicEntry) {
      const keys = new Set(base);
      closure(flowPage, keys);
      closure(key, keys);
      figures.push({ page: `FlowRoutePage + ${path.basename(src, '.tsx')}`, gzipBytes: size(keys) });
      continue;
    }
    if (!['features/study/', 'features/chat/', 'features/auth/'].some((area) => src.includes(area))) continue;
    if (!/Page\.tsx$/.test(src)) continue;
    const keys = new Set(base);
    closure(key, keys);
    figures.push({ page: path.basename(src, '.tsx'), gzipBytes: size(keys) });
  }
  return figures;
}
