import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { search } from './search';

let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder('quire-repeats-');
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

const KEYS = '## Rotating keys\n\nWe rotate the deploy keys every 90 days, and the vault keeps the old keys for a week.\n';
const found = async (question: string, k: number) => (await search(db, question, { mode: 'lexical', gateway: null, k })).results.map((r) => `${r.path} | ${r.heading}`);

describe('repeated passages', () => {
  it('a page held twice is sent once, and the next passage takes the place of its copy', async () => {
    notes.write('guide/keys.md', `# Keys\n\n${KEYS}`);
    notes.write('all-in-one.md', `# Everything\n\n## Bread\n\nBake at 250 degrees.\n\n# Keys\n\n${KEYS}`);
    notes.write('backup/keys.md', `# Keys\n\n${KEYS}`);
    notes.write('vault.md', '# Vault\n\nThe vault rotates nothing by itself; the deploy keys are rotated by hand.\n');
    await importFolder(db, notes.root, { embedding: null });
    const got = await found('how often do we rotate the deploy keys', 2);
    expect(got, JSON.stringify(got)).toHaveLength(2);
    // Three copies of the keys page (the all-in-one page's passage is its Keys part, the same text).
    expect(got.filter((g) => /keys\.md|all-in-one\.md/.test(g)), JSON.stringify(got)).toHaveLength(1);
    expect(got.some((g) => g.startsWith('vault.md'))).toBe(true);
  });

  it('the same lines in another context are no repeat: each passage brings its own text', async () => {
    const snippet = '```ini\nkeys_rotation_days = 90\n```\n';
    notes.write('deploy.md', `# Deploy\n\nThe deploy job reads the rotation setting:\n\n${snippet}`);
    notes.write('vault.md', `# Vault\n\nThe vault's rotation setting, in days:\n\n${snippet}`);
    await importFolder(db, notes.root, { embedding: null });
    const got = await found('keys rotation days setting', 6);
    expect(got.map((g) => g.split(' | ')[0]).sort()).toEqual(['deploy.md', 'vault.md']);
  });

  it('a one-line note held inside a longer unrelated passage is no copy: it is kept', async () => {
    notes.write('setup.md', `# Setup\n\nInstall the tool, then rotate the deploy keys once so the vault has a first pair. See below. The rotation itself is scheduled by the deploy job, which reads its period from the settings file and logs each run.\n`);
    // A note of one line and no heading: its chunk's text is that line alone.
    notes.write('keys.md', 'See below.\n');
    await importFolder(db, notes.root, { embedding: null });
    const got = await found('deploy keys rotation below', 6);
    expect(got.map((g) => g.split(' | ')[0]).sort(), JSON.stringify(got)).toEqual(['keys.md', 'setup.md']);
  });

  it('the same long text under two headings of one document is that document\'s own text, not a copy', async () => {
    // Long enough that each section is a chunk of its own (sections that fit are packed together).
    const returns = Array.from({ length: 8 }, (_, i) => `Returns a promise that resolves once part ${i} of the file has been handled, and rejects with the error the file system gave when the path cannot be opened.`).join(' ');
    notes.write('api.md', `# File API\n\n## readFile\n\n${returns}\n\n## writeFile\n\n${returns}\n`);
    await importFolder(db, notes.root, { embedding: null });
    const got = await found('promise resolves file handled', 6);
    expect(got.map((g) => g.split(' | ')[1]).filter((h) => h!.includes(' > ')).sort(), JSON.stringify(got)).toEqual(['File API > readFile', 'File API > writeFile']);
  });
});
