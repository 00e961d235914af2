import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The most folders offered for one prefix. */
const MAX_COMPLETIONS = 20;

/**
 * Folders that complete a path being typed in the import field (browser mode has no folder
 * picker): the subfolders of the typed parent whose names start with what follows the last
 * separator, case aside. Only inside the home folder (`~` is the home folder): names elsewhere are
 * none of a web page's business, even a trusted one's. Hidden folders only when their dot is typed.
 */
export function folderCompletions(prefix: string, home = os.homedir()): string[] {
  const typed = prefix.replace(/^~(?=$|[\\/])/, home);
  if (!path.isAbsolute(typed)) return [];
  const endsWithSep = /[\\/]$/.test(typed);
  const parent = endsWithSep ? typed : path.dirname(typed);
  const start = endsWithSep ? '' : path.basename(typed);
  let realParent: string;
  let realHome: string;
  try {
    realParent = fs.realpathSync(parent);
    realHome = fs.realpathSync(home);
  } catch {
    return [];
  }
  if (realParent !== realHome && !realParent.startsWith(realHome + path.sep)) return [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(realParent, { withFileTypes: true });
  } catch {
    return [];
  }
  const wanted = start.toLowerCase();
  return entries
    .filter((e) => e.isDirectory() && e.name.toLowerCase().startsWith(wanted) && (!e.name.startsWith('.') || start.startsWith('.')))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, MAX_COMPLETIONS)
    .map((name) => path.join(parent, name));
}
