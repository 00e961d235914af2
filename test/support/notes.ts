import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throwaway folder of notes for a test, with helpers to change it like a person would. */
export class NotesFolder {
  readonly root: string;
  private writes = 0;

  constructor(prefix = 'quire-notes-') {
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  }

  write(rel: string, content: string | Uint8Array): string {
    const abs = path.join(this.root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    // Make every write visible to a size+mtime check, even within one clock tick.
    const t = new Date(Date.now() + ++this.writes * 2000);
    fs.utimesSync(abs, t, t);
    return abs;
  }

  remove(rel: string): void {
    fs.rmSync(path.join(this.root, rel), { force: true });
  }

  path(rel: string): string {
    return path.join(this.root, rel);
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

export function tempDbPath(prefix = 'quire-db-'): { file: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { file: path.join(dir, 'quire.db'), dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
