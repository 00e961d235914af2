import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { findCollectionByRoot, forgetCollection, listCollections } from '../../core/db/collections';
import type { CliContext } from '../context';

/** Removes a collection and everything derived from it; the folder itself is never touched. */
export async function forgetCommand(ctx: CliContext, folder: string): Promise<number> {
  const resolved = path.resolve(folder);
  // The folder may be gone already: fall back to the path as given.
  const root = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
  const collection = findCollectionByRoot(ctx.db, root) ?? findCollectionByRoot(ctx.db, resolved);
  if (!collection) {
    const known = listCollections(ctx.db).map((c) => c.root);
    throw new QuireError('COLLECTION_NOT_FOUND', `${folder} was never imported.${known.length ? ` Imported folders: ${known.join(', ')}` : ''}`);
  }
  const { documents } = forgetCollection(ctx.db, collection);
  ctx.out.result({ root: collection.root, documents }, () => `Forgot ${collection.root}: ${documents} documents and everything derived from them removed from the index.`);
  return 0;
}
