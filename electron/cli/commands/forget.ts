import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { findCollectionByRoot, forgetCollection, listCollections } from '../../core/db/collections';
import { removeIndexes } from '../../core/eval/index-files';
import { lockHolder } from '../../core/eval/run-lock';
import { evalIndexDir } from '../../core/paths';
import type { CliContext } from '../context';

/** Removes a collection and everything derived from it; the folder itself is never touched. */
export async function forgetCommand(ctx: CliContext, folder: string): Promise<number> {
  const resolved = path.resolve(folder);
  // The folder may be gone already: fall back to the path as given.
  const root = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
  const collection = findCollectionByRoot(ctx.db, root) ?? findCollectionByRoot(ctx.db, resolved);
  // Indexes the bench built for this folder go too, imported or not ("quire eval --docs" needs no import).
  const evalDir = evalIndexDir(ctx.dbPath);
  // Not while an evaluation (here or in the app) is using this folder's indexes.
  const inUse = (folder: string) => lockHolder(evalDir)?.docs === folder;
  const removeFor = (folder: string) => (inUse(folder) ? 0 : removeIndexes(evalDir, folder).indexes);
  const evalIndexes = removeFor(root) + (root !== resolved ? removeFor(resolved) : 0);
  if (!collection && evalIndexes > 0) {
    ctx.out.result({ root, documents: 0, evalIndexes }, () => `${folder} was never imported; removed ${evalIndexes} evaluation index${evalIndexes === 1 ? '' : 'es'} built for it.`);
    return 0;
  }
  if (!collection) {
    const known = listCollections(ctx.db).map((c) => c.root);
    throw new QuireError('COLLECTION_NOT_FOUND', `${folder} was never imported.${known.length ? ` Imported folders: ${known.join(', ')}` : ''}`);
  }
  const { documents } = forgetCollection(ctx.db, collection);
  ctx.out.result(
    { root: collection.root, documents, evalIndexes },
    () => `Forgot ${collection.root}: ${documents} documents and everything derived from them removed from the index${evalIndexes ? `, and ${evalIndexes} evaluation index${evalIndexes === 1 ? '' : 'es'}` : ''}.`,
  );
  return 0;
}
