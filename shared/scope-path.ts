import { QuireError } from './errors';

/**
 * A folder path inside an imported folder as scopes hold it: relative to the root, forward
 * slashes, no leading, trailing or repeated slash and no `.` segment; '' is the whole folder.
 * Null for a path that climbs out (`..`), which no scope may name.
 */
export function normaliseScopePath(path: string): string | null {
  const parts = path.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  return parts.includes('..') ? null : parts.join('/');
}

/** How a scope's part is named to a person: the folder's name, then the subfolder's path. */
export function scopeLabel(part: { name: string; path?: string }): string {
  return part.path ? `${part.name}/${part.path}` : part.name;
}

/** A scope's folder path, normalised; refused with a sentence when it climbs out of its imported folder. */
export function requireScopePath(path: string): string {
  const clean = normaliseScopePath(path);
  if (clean === null) throw new QuireError('INVALID_ARGUMENT', `A scope's folder must lie inside its imported folder, not “${path}”.`);
  return clean;
}

/**
 * The stored relative paths (`rel_path`) of the documents in a folder, as a half-open range
 * [from, to): `work/` up to `work0` ('0' follows '/'), so `work` never takes in `workshop/…`, with
 * no LIKE and so no wildcard in a folder's name. Null for '' (the whole imported folder).
 */
export function scopePathRange(clean: string): { from: string; to: string } | null {
  return clean === '' ? null : { from: `${clean}/`, to: `${clean}0` };
}

/** Whether the place `outer` (a folder path, '' for the whole imported folder) holds `inner`, a folder strictly inside it. */
export function holdsFolder(outer: string, inner: string): boolean {
  return inner !== outer && (outer === '' || inner.startsWith(`${outer}/`));
}
