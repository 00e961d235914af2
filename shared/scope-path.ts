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
