import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardStaticPath, isInside, resolveInside, staticRelativePath } from './static-file-guard';

let tmp: string;
let root: string;
const SECRET = 'TOP-SECRET-outside-the-renderer';

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-static-guard-')));
  root = path.join(tmp, 'dist', 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html>\n');
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1);\n');
  fs.writeFileSync(path.join(root, '.env'), SECRET);
  // A sibling whose name starts with the root's: a naive prefix check would let it through.
  fs.mkdirSync(path.join(tmp, 'dist', 'renderer-evil'));
  fs.writeFileSync(path.join(tmp, 'dist', 'renderer-evil', 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(tmp, 'dist', 'secret.txt'), SECRET);
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'outside', 'secret.js'), SECRET);
  // Symlinks: files and a directory pointing out, one dangling, one pointing inside.
  fs.symlinkSync(path.join(tmp, 'outside', 'secret.js'), path.join(root, 'assets', 'escape.js'));
  fs.symlinkSync(path.join(tmp, 'dist', 'renderer-evil', 'secret.txt'), path.join(root, 'leak.txt'));
  fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'linked'));
  fs.symlinkSync(path.join(tmp, 'nowhere.js'), path.join(root, 'assets', 'dangling.js'));
  fs.symlinkSync(path.join(root, 'assets', 'app.js'), path.join(root, 'assets', 'alias.js'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Accepted: [rel] or [rel, the real file relative to the root when a symlink leads elsewhere]. */
type Expected = 'bad-path' | 'outside-root' | [string] | [string, string];

// The union of the path cases browser mode (electron/web/server.test.ts) and the app:// protocol
// (electron/main/app-protocol.test.ts) each kept before they shared this guard, plus the
// characters only one of them refused (`:`, DEL, C1 controls).
const TABLE: Array<[string, Expected]> = [
  // Accepted, inside the root.
  ['', ['']],
  ['/', ['']],
  ['/index.html', ['index.html']],
  ['/assets/app.js', ['assets/app.js']],
  ['/assets/app%2Ejs', ['assets/app.js']],
  ['/assets/app%2D1.js', ['assets/app-1.js']],
  ['/assets', ['assets']],
  ['/library', ['library']],
  ['/library/notes', ['library/notes']],
  ['/assets/missing.js', ['assets/missing.js']],
  ['/assets/alias.js', ['assets/alias.js', 'assets/app.js']],
  // "Absolute" paths stay relative to the root.
  ['//etc/passwd', ['etc/passwd']],
  ['//etc/passwd.txt', ['etc/passwd.txt']],
  ['/%2fetc%2fpasswd', ['etc/passwd']],
  ['/%2Fetc%2Fpasswd.txt', ['etc/passwd.txt']],
  // Decoded once: a double-encoded dot is a literal name, not a dot-segment.
  ['/%252e%252e/renderer-evil/secret.txt', ['%2e%2e/renderer-evil/secret.txt']],

  // Dot-segments, plain and encoded.
  ['/../secret.txt', 'bad-path'],
  ['/../renderer-evil/secret.txt', 'bad-path'],
  ['/assets/../../secret.txt', 'bad-path'],
  ['/assets/../../renderer-evil/secret.txt', 'bad-path'],
  ['/..%2frenderer-evil%2fsecret.txt', 'bad-path'],
  ['/..%2frenderer-evil%2fsecret.js', 'bad-path'],
  ['/..%2f..%2fetc/passwd', 'bad-path'],
  ['/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd', 'bad-path'],
  ['/..%2F..%2F..%2F..%2Fetc%2Fpasswd', 'bad-path'],
  ['/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd', 'bad-path'],
  ['/%2e%2e/x', 'bad-path'],
  ['/%2E%2E/secret.txt', 'bad-path'],
  ['/%2e%2e/renderer-evil/secret.txt', 'bad-path'],
  ['/%2e%2e%2frenderer-evil%2fsecret.txt', 'bad-path'],
  ['/%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'bad-path'],
  ['/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd', 'bad-path'],
  [`/${'%2e%2e%2f'.repeat(12)}etc/passwd`, 'bad-path'],
  ['/assets/..%2f..%2fsecret.txt', 'bad-path'],
  ['/assets/%2e%2e/%2e%2e/renderer-evil/secret.txt', 'bad-path'],
  ['/.%2e/renderer-evil/secret.js', 'bad-path'],
  ['/a/%2e%2e/b', 'bad-path'],
  ['/./index.html', 'bad-path'],
  ['/%2e/index.html', 'bad-path'],
  // Hidden files.
  ['/.env', 'bad-path'],
  // Backslashes, raw and encoded.
  ['/a\\b', 'bad-path'],
  ['/..\\renderer-evil\\secret.txt', 'bad-path'],
  ['/assets\\..\\..\\secret.txt', 'bad-path'],
  ['/..%5crenderer-evil%5csecret.txt', 'bad-path'],
  ['/..%5c..%5csecret.txt', 'bad-path'],
  ['/assets%5capp.js', 'bad-path'],
  // NUL and other control characters.
  ['/a%00b', 'bad-path'],
  ['/index.html%00', 'bad-path'],
  ['/index.html%00.js', 'bad-path'],
  ['/secret.txt%00.html', 'bad-path'],
  ['/index%0a.html', 'bad-path'],
  ['/index%0d.html', 'bad-path'],
  ['/index%09.html', 'bad-path'],
  ['/index%7f.html', 'bad-path'],
  ['/index%C2%85.html', 'bad-path'],
  // Drive letters and NTFS streams.
  ['/C:/Windows/win.ini', 'bad-path'],
  ['/C%3A%5CWindows%5Cwin.ini', 'bad-path'],
  ['/index.html::$DATA', 'bad-path'],
  ['/assets/app.js:secret', 'bad-path'],
  // Undecodable: malformed escapes, truncated and overlong UTF-8.
  ['/%zz', 'bad-path'],
  ['/%ZZ', 'bad-path'],
  ['/%E0%A4%A', 'bad-path'],
  ['/%c0%ae%c0%ae/secret.txt', 'bad-path'],

  // Symlinks that leave the root, and a dangling one.
  ['/leak.txt', 'outside-root'],
  ['/linked', 'outside-root'],
  ['/linked/secret.js', 'outside-root'],
  // Missing, but its folder leads out.
  ['/linked/secret.txt', 'outside-root'],
  ['/assets/escape.js', 'outside-root'],
  ['/assets/dangling.js', 'outside-root'],
];

describe('guardStaticPath', () => {
  it.each(TABLE)('%j → %j', (raw, expected) => {
    const got = guardStaticPath(root, raw);
    if (expected === 'bad-path') {
      expect(got).toEqual({ ok: false, reason: 'bad-path' });
    } else if (expected === 'outside-root') {
      expect(got).toMatchObject({ ok: false, reason: 'outside-root' });
    } else {
      const [rel, real = rel] = expected;
      expect(got).toEqual({ ok: true, rel, file: real === '' ? root : path.join(root, ...real.split('/')) });
    }
  });

  it('holds the union of both shells’ former tables and more', () => {
    expect(new Set(TABLE.map(([raw]) => raw)).size).toBe(TABLE.length);
    expect(TABLE.length).toBeGreaterThanOrEqual(69);
  });

  it('never returns a file outside the real root, whatever the root is spelled like', () => {
    for (const r of [root, `${root}/`, path.join(root, 'assets', '..')]) {
      for (const [raw] of TABLE) {
        const got = guardStaticPath(r, raw);
        if (got.ok) expect(isInside(root, got.file), raw).toBe(true);
      }
    }
  });

  it('staticRelativePath decodes exactly once', () => {
    expect(staticRelativePath('/a%2520b')).toBe('a%20b');
    expect(staticRelativePath('/a%20b')).toBe('a b');
  });
});

describe('confinement helpers', () => {
  it('isInside compares whole path segments', () => {
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, path.join(root, 'a.js'))).toBe(true);
    expect(isInside(`${root}${path.sep}`, path.join(root, 'a.js'))).toBe(true);
    expect(isInside(root, `${root}-evil`)).toBe(false);
    expect(isInside(root, path.join(`${root}-evil`, 'secret.js'))).toBe(false);
    expect(isInside(root, path.dirname(root))).toBe(false);
  });

  it('resolveInside confines a relative path even without the string checks in front of it', () => {
    expect(resolveInside(root, 'assets/app.js')).toBe(path.join(root, 'assets', 'app.js'));
    expect(resolveInside(root, '')).toBe(root);
    expect(resolveInside(root, '/etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
    expect(resolveInside(root, '../renderer')).toBe(root);
    expect(resolveInside(root, '..')).toBeNull();
    expect(resolveInside(root, '../secret.txt')).toBeNull();
    expect(resolveInside(root, '../renderer-evil/secret.txt')).toBeNull();
    expect(resolveInside(root, 'assets/../../../../etc/passwd')).toBeNull();
    expect(resolveInside(root, '../../../../../../etc/passwd')).toBeNull();
  });
});
