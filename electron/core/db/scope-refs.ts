import path from 'node:path';
import type { ScopeRef } from '../../../shared/contract';
import { QuireError } from '../../../shared/errors';
import { holdsFolder, normaliseScopePath, requireScopePath, scopeLabel, scopePathRange } from '../../../shared/scope-path';
import { collectionNamed, findCollectionByRoot, folderRoot, getCollection, listCollections, type CollectionRow } from './collections';
import type { Db } from './open';

/** One part of a resolved scope: an imported folder and a folder inside it ('' for all of it). */
export interface ScopePart {
  collection: CollectionRow;
  path: string;
}

/**
 * The folders a scope names. A string is an imported folder by its path (as imports resolve it),
 * id or name (case aside), or a folder inside one: a path under its root, or its name followed by
 * `/sub/folder`. An object names a collection by id and a path inside it. An unknown folder, or a
 * subfolder no imported document lies in, is refused with a sentence saying so, so a typo never
 * widens a question to everything or narrows it to nothing.
 */
export function resolveScopeRefs(db: Db, refs: readonly ScopeRef[]): ScopePart[] {
  const all = listCollections(db);
  const parts = refs.map((ref) => checked(db, typeof ref === 'string' ? fromString(db, all, ref) : fromObject(db, ref), ref));
  // A folder named twice is in the scope once; a folder covers the folders inside it (as the picker's setScope).
  const covered = (p: ScopePart) => parts.some((o) => o.collection.id === p.collection.id && holdsFolder(o.path, p.path));
  const seen = new Set<string>();
  return parts.filter((p) => {
    const key = `${p.collection.id}\u0000${p.path}`;
    if (seen.has(key) || covered(p)) return false;
    seen.add(key);
    return true;
  });
}

function fromObject(db: Db, ref: { collectionId: string; path: string }): ScopePart {
  return { collection: getCollection(db, ref.collectionId), path: requireScopePath(ref.path) };
}

function fromString(db: Db, all: CollectionRow[], ref: string): ScopePart {
  const resolved = folderRoot(ref);
  const whole = findCollectionByRoot(db, resolved) ?? all.find((c) => c.id === ref) ?? collectionNamed(all, ref);
  if (whole) return { collection: whole, path: '' };
  // A path inside an imported folder: the innermost root that holds it (folders may be nested).
  const holders = all.filter((c) => resolved.startsWith(c.root.endsWith(path.sep) ? c.root : c.root + path.sep)).sort((a, b) => b.root.length - a.root.length);
  const holder = holders[0];
  if (holder) return { collection: holder, path: path.relative(holder.root, resolved).split(path.sep).join('/') };
  // A folder's name and a path inside it: `notes/work`.
  const slash = ref.replace(/\\/g, '/').indexOf('/');
  if (slash > 0) {
    const named = collectionNamed(all, ref.slice(0, slash));
    const rest = normaliseScopePath(ref.slice(slash + 1));
    if (named && rest !== null) return { collection: named, path: rest };
  }
  const names = all.map((c) => `“${c.name}”`).join(', ');
  throw new QuireError('COLLECTION_NOT_FOUND', `No imported folder is called or found at “${ref}”, and it is not inside one.${names ? ` Folders: ${names}.` : ' Nothing is imported yet.'}`);
}

/** A subfolder must hold at least one imported document: one that holds none is a typo or a file. */
function checked(db: Db, part: ScopePart, ref: ScopeRef): ScopePart {
  const range = scopePathRange(part.path);
  if (!range) return part;
  const any = db.prepare('SELECT 1 FROM documents WHERE collection_id = ? AND rel_path >= ? AND rel_path < ? LIMIT 1').get(part.collection.id, range.from, range.to);
  if (!any) {
    const named = typeof ref === 'string' ? ref : scopeLabel({ name: part.collection.name, path: part.path });
    throw new QuireError('COLLECTION_NOT_FOUND', `“${named}” is inside the imported folder “${part.collection.name}”, but no imported document lies in a folder “${part.path}” there.`);
  }
  return part;
}
