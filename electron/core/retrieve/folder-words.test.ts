import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { lexicalSearch } from './lexical';

// The same page filed under two platforms, as command references and manuals often are: only the
// folder says which platform a page is for.
const PAGE = ['# Ports', '', 'Open a port in the firewall so that a service can be reached from other machines.', ''].join('\n');

describe('keyword search and folder names', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-folder-words-'));
    for (const platform of ['linux', 'windows']) {
      fs.mkdirSync(path.join(dir, 'notes', platform), { recursive: true });
      fs.writeFileSync(path.join(dir, 'notes', platform, 'ports.md'), PAGE);
    }
    fs.writeFileSync(path.join(dir, 'notes', 'windows-history.md'), '# History\n\nThe first version shipped in 1985.\n');
    db = openDatabase(path.join(dir, 'quire.db'));
    await importFolder(db, path.join(dir, 'notes'), { embedding: null, chunker: { kind: 'heading', maxTokens: 64 } });
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const firstPath = (question: string) => {
    const [top] = lexicalSearch(db, question, 5);
    return db.prepare('SELECT d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.rowid = ?').pluck().get(top!.rowid);
  };

  it('ranks first the page filed in the folder a question names, whichever folder that is', () => {
    expect(firstPath('how do I open a port in the firewall on windows?')).toBe('windows/ports.md');
    expect(firstPath('how do I open a port in the firewall on linux?')).toBe('linux/ports.md');
  });

  it('matches folder names only: a word of a file name at the top level does not count as a folder', () => {
    // "windows" is in windows-history.md's name, not in a folder of it: only its text could match.
    expect(firstPath('when was the first version shipped on windows')).toBe('windows-history.md');
    const hits = lexicalSearch(db, 'windows', 10).map((h) => db.prepare('SELECT d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.rowid = ?').pluck().get(h.rowid));
    expect(hits).toEqual(['windows/ports.md']);
  });
});
