/**
 * The one check between a request path and a file of the built renderer, shared by browser mode
 * (electron/web) and the desktop shell's app:// protocol (electron/main). Both serve the same
 * bundle to the same page, so a path one of them refuses must be refused by the other too.
 *
 * A raw request path (still percent-encoded, without query or fragment) is refused when:
 *  - it does not decode (malformed or overlong UTF-8);
 *  - once decoded, it holds a control character (C0, DEL or C1; NUL among them), a backslash
 *    (a separator on Windows) or a colon (drive letters, NTFS alternate streams);
 *  - a segment starts with a dot: `.` and `..` however encoded (`%2e`, or hidden inside a single
 *    `%2f`-joined segment) and hidden files such as `.env`.
 * Decoding happens exactly once: `%252e` stays the literal name `%2e`, never a dot-segment.
 * Empty segments are dropped, so `//etc/passwd` names `etc/passwd` inside the root, not /etc.
 *
 * What is left is confined twice: lexically (whole path segments, so `renderer-evil` is not
 * inside `renderer`) and by its real path after following symlinks — the file's when it exists,
 * else its nearest existing folder's. A dangling symlink is refused, since its target could
 * appear later outside the root.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A refused path, or where an accepted one leads. */
export type GuardedPath =
  | { ok: false; reason: 'bad-path' }
  /** The decoded path is fine but its file lies outside the root (through a symlink). */
  | { ok: false; reason: 'outside-root'; rel: string }
  /**
   * rel: '/'-separated, relative to the root ('' for the root itself). file: the real path when
   * something exists there (what was checked is what gets opened), else the confined path.
   */
  | { ok: true; rel: string; file: string };

// C0 controls (NUL included), DEL, C1 controls, backslash and colon.
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\:]/;

/** The decoded, '/'-joined path relative to the root, or null when the rules above refuse it. */
export function staticRelativePath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (FORBIDDEN_CHARACTERS.test(decoded)) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s.startsWith('.'))) return null;
  return segments.join('/');
}

/** True when `full` is `root` itself or lies inside it (never a sibling such as `root-evil`). */
export function isInside(root: string, full: string): boolean {
  return full === root || full.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** root joined with a '/'-separated relative path, or null when the result would leave root. */
export function resolveInside(root: string, rel: string): string | null {
  const base = path.resolve(root);
  const full = path.resolve(base, `.${path.sep}${rel.split('/').join(path.sep)}`);
  return isInside(base, full) ? full : null;
}

/**
 * The real path of `full` when it exists and stays inside the real root; `full` itself when
 * nothing is there yet but its nearest existing folder is inside; null otherwise (a dangling
 * symlink, or a folder that leads out through a symlink).
 */
function realPathInside(root: string, full: string): string | null {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return null;
  }
  try {
    const realFile = fs.realpathSync(full);
    return isInside(realRoot, realFile) ? realFile : null;
  } catch {
    if (isSymlink(full)) return null;
  }
  for (let dir = path.dirname(full); isInside(root, dir); dir = path.dirname(dir)) {
    try {
      return isInside(realRoot, fs.realpathSync(dir)) ? full : null;
    } catch {
      if (isSymlink(dir)) return null;
    }
  }
  return null;
}

function isSymlink(full: string): boolean {
  try {
    return fs.lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Applies every rule to a raw request path under `root`. */
export function guardStaticPath(root: string, rawPath: string): GuardedPath {
  const rel = staticRelativePath(rawPath);
  if (rel === null) return { ok: false, reason: 'bad-path' };
  const full = resolveInside(root, rel);
  const file = full === null ? null : realPathInside(path.resolve(root), full);
  return file === null ? { ok: false, reason: 'outside-root', rel } : { ok: true, rel, file };
}
