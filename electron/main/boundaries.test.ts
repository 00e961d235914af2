import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, '..', '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(e.name) ? [full] : [];
  });
}

/** Import statements (static, dynamic, require) naming `electron` or `electron/...`. */
function electronImports(text: string): string[] {
  const found: string[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?from\s+['"](electron(?:\/[^'"]*)?)['"]|(?:import|require)\s*\(\s*['"](electron(?:\/[^'"]*)?)['"]\s*\)/g;
  for (const m of text.matchAll(re)) found.push(m[2] ? 'type' : 'runtime');
  return found;
}

describe('process boundaries', () => {
  it('electron/core never imports electron', () => {
    const offenders = sources(path.join(repo, 'electron', 'core')).filter((f) => electronImports(fs.readFileSync(f, 'utf8')).length > 0);
    expect(offenders).toEqual([]);
  });

  it('shared/ never imports electron', () => {
    const offenders = sources(path.join(repo, 'shared')).filter((f) => electronImports(fs.readFileSync(f, 'utf8')).length > 0);
    expect(offenders).toEqual([]);
  });

  it('in electron/main only main.ts imports electron at runtime; the rest use types only (so fakes can test them)', () => {
    const runtime = sources(here)
      .filter((f) => path.basename(f) !== 'boundaries.test.ts')
      .filter((f) => electronImports(fs.readFileSync(f, 'utf8')).includes('runtime'))
      .map((f) => path.basename(f));
    expect(runtime).toEqual(['main.ts']);
  });

  it('the detector sees both kinds of import', () => {
    expect(electronImports("import { app } from 'electron';")).toEqual(['runtime']);
    expect(electronImports("import type { App } from 'electron';")).toEqual(['type']);
    expect(electronImports("const e = require('electron');")).toEqual(['runtime']);
  });
});
