import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering DESIGN.md promises, enforced: electron/core never imports 'electron' (it must run
 * under plain Node), the renderer never reaches into electron/, and shared/ imports no runtime.
 */
const ROOT = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile() && /\.(ts|tsx|js|mjs|cjs|jsx)$/.test(e.name))
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`));
}

/** Every module specifier in a file: static and dynamic imports, re-exports, require(). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/');

describe('import boundaries', () => {
  it('the scanner finds every kind of import (so the checks below can fail)', () => {
    const src = `import { app } from 'electron';\nimport type { X } from "../electron/main/x";\nconst a = require('electron/main');\nexport { y } from './y';\nawait import('node:fs');`;
    expect(specifiers(src).sort()).toEqual(['../electron/main/x', './y', 'electron', 'electron/main', 'node:fs'].sort());
  });

  it('electron/core never imports electron', () => {
    const files = sourceFiles('electron/core');
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) => specifiers(fs.readFileSync(f, 'utf8')).some(isElectron));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('renderer imports nothing from electron/ and not electron itself', () => {
    const offenders: string[] = [];
    for (const f of sourceFiles('renderer')) {
      for (const spec of specifiers(fs.readFileSync(f, 'utf8'))) {
        const resolved = spec.startsWith('.') ? path.resolve(path.dirname(f), spec) : null;
        if (isElectron(spec) || (resolved && resolved.startsWith(path.join(ROOT, 'electron') + path.sep))) {
          offenders.push(`${path.relative(ROOT, f)} → ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('shared/ imports only shared/ and zod', () => {
    const offenders: string[] = [];
    for (const f of sourceFiles('shared')) {
      for (const spec of specifiers(fs.readFileSync(f, 'utf8'))) {
        const ok = spec === 'zod' || spec === 'vitest' || (spec.startsWith('.') && path.resolve(path.dirname(f), spec).startsWith(path.join(ROOT, 'shared')));
        if (!ok) offenders.push(`${path.relative(ROOT, f)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('imports among shared/ files form no cycle (type-only imports count)', () => {
    // The finder itself, on a graph with a known cycle, so the real check below can fail.
    expect(findImportCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual(['a', 'b', 'c', 'a']);
    expect(findImportCycle(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toBeNull();

    const graph = new Map<string, string[]>();
    for (const f of sourceFiles('shared')) {
      const deps = specifiers(fs.readFileSync(f, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.relative(ROOT, path.resolve(path.dirname(f), spec)).replace(/(\.ts)?$/, '.ts'));
      graph.set(path.relative(ROOT, f), deps);
    }
    expect(graph.size).toBeGreaterThan(3);
    expect(findImportCycle(graph)).toBeNull();
  });
});

/** One import cycle of a module graph, as the path that closes it (first node repeated), or null. */
function findImportCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
