import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageVersion } from './version';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-version-'));
  dirs.push(root);
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'quire', version: '3.4.5' }));
  return root;
}

describe('packageVersion', () => {
  it('reads the sources’ package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(pkg.version);
  });

  it('finds it from the built command line’s chunks, past a package.json that is not Quire’s', () => {
    const root = tree();
    const chunks = path.join(root, 'dist', 'cli', 'chunks');
    fs.mkdirSync(chunks, { recursive: true });
    fs.writeFileSync(path.join(root, 'dist', 'package.json'), JSON.stringify({ name: 'something-else', version: '0.0.1' }));
    expect(packageVersion(chunks)).toBe('3.4.5');
  });

  it('says unknown rather than read another package’s version', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-version-'));
    dirs.push(root);
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'other', version: '9.9.9' }));
    expect(packageVersion(root)).toBe('unknown');
  });
});
