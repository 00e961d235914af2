import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { readerFor, supportedExtensions } from '../ingest/readers';

/**
 * The file behind a cited passage, as a path the OS may open. The OS opens a file with whatever
 * its type says (a script runs, an .app launches), and a note can be a link to anything in its
 * folder, so only a regular file whose real path is inside the imported folder and whose real name
 * is a type Quire reads is ever handed over: the link's own name proves nothing.
 */
export function openableSourceFile(root: string, relPath: string): string {
  let realRoot: string;
  let file: string;
  try {
    realRoot = fs.realpathSync(root);
    file = fs.realpathSync(path.join(realRoot, relPath));
  } catch {
    throw new QuireError('INVALID_ARGUMENT', `${relPath} is no longer in its folder; import the folder again.`);
  }
  if (!file.startsWith(realRoot + path.sep)) throw new QuireError('INVALID_ARGUMENT', 'That file is outside the imported folder.');
  if (!readerFor(file)) {
    throw new QuireError('INVALID_ARGUMENT', `Quire opens only notes (${supportedExtensions().join(', ')}); ${relPath} leads to ${path.basename(file)}, which it will not open.`);
  }
  if (!fs.statSync(file).isFile()) throw new QuireError('INVALID_ARGUMENT', `${relPath} is not a regular file, so Quire will not open it.`);
  return file;
}
