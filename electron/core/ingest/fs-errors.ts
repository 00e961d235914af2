/**
 * A file-system error met while importing, as a sentence a person can act on. Node's own messages
 * ("EACCES: permission denied, open '/home/…'") name a syscall and repeat the absolute path the
 * report already gives as a relative one; the code stays at the end, in brackets, for a search.
 */
export function fsErrorSentence(e: unknown, what: 'file' | 'folder' | 'link'): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  const it = what === 'folder' ? 'this folder' : 'this file';
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      if (what === 'link') return `It is a link to something that does not exist (${code}).`;
      return `It was moved or deleted while the folder was being imported; the next import finds it under its new name (${code}).`;
    case 'EACCES':
    case 'EPERM':
      return what === 'folder'
        ? `Quire is not allowed to open this folder, so nothing in it was imported; what the index already holds from it is kept. Check its permissions (${code}).`
        : `Quire is not allowed to read ${it}. Check its permissions (${code}).`;
    case 'ELOOP':
      return `It is a link that leads back to itself, so it was not followed (${code}).`;
    case 'EIO':
      return `The disk reported an error reading ${it}; it may be damaged, or on a drive that went away (${code}).`;
    case 'EMFILE':
    case 'ENFILE':
      return `Too many files were open at once to read ${it}; it is read again at the next import (${code}).`;
    default:
      return `Could not read ${it}: ${message}`;
  }
}
