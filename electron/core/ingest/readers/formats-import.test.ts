import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../../test/support/notes';
import { openDatabase, type Db } from '../../db/open';
import { search } from '../../retrieve/search';
import { importFolder } from '../pipeline';

let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder();
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

describe('documentation and note formats: MDX, reStructuredText, AsciiDoc, Org', () => {
  it('imports each as its own type, and keyword search finds their passages under their headings and lines', async () => {
    notes.write('docs/intro.mdx', ["import Tabs from '@theme/Tabs';", '', '# Introduction', '', '<Tabs>', '', 'The gateway retries idempotent requests three times.', '', '</Tabs>'].join('\n'));
    notes.write('guide/usage.rst', ['=====', 'Usage', '=====', '', 'Retries', '-------', '', 'Set ``max_attempts`` to change how often the uploader tries::', '', '   # not a heading', '   client.upload(max_attempts=5)', '', 'Done.'].join('\n'));
    notes.write('ops/server.adoc', ['= Server Notes', '', '== Firewall', '', 'Port 8443 is open to the office subnet only.'].join('\n'));
    notes.write('journal.org', ['#+TITLE: Journal', '* Garden', 'The tomatoes went in on the fourth of May.'].join('\n'));
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.documents.added).toBe(4);
    expect(r.indexedByType).toMatchObject({ mdx: 1, rst: 1, asciidoc: 1, org: 1 });
    const top = async (q: string) => (await search(db, q, { mode: 'lexical', gateway: null, k: 3 })).results[0]!;
    expect(await top('which port is open for the office')).toMatchObject({ path: 'ops/server.adoc', heading: 'Server Notes' });
    expect(await top('when did I plant tomatoes')).toMatchObject({ path: 'journal.org', heading: 'Journal > Garden' });

    const mdx = (await search(db, 'how many times does the gateway retry', { mode: 'lexical', gateway: null, k: 3 })).results[0]!;
    expect(mdx.path).toBe('docs/intro.mdx');
    expect(mdx.heading).toBe('Introduction');
    expect(mdx.text).not.toContain('import');

    const rst = (await search(db, 'uploader max_attempts', { mode: 'lexical', gateway: null, k: 3 })).results[0]!;
    expect(rst.path).toBe('guide/usage.rst');
    expect(rst.heading).toBe('Usage'); // a short document is one passage: its heading path is what its sections share
    expect(rst.text).toContain('client.upload(max_attempts=5)');
    expect(rst.lines[1]).toBeGreaterThanOrEqual(11);
  });
});
