import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { watchFolder, type FolderWatch } from './folder-watcher';

// Real chokidar on a real folder: waits for the watcher's reports, never for a fixed time.
const WAIT = { timeout: 8000, interval: 25 };

let notes: NotesFolder;
let watch: FolderWatch | null = null;
afterEach(async () => {
  await watch?.close();
  notes?.dispose();
});

describe('the folder watcher', () => {
  it('reports notes and folders, not the files no reader takes (pictures, swap files) nor those the walk passes over (hidden)', async () => {
    notes = new NotesFolder('quire-folder-watcher-');
    const seen: string[] = [];
    let ready = false;
    watch = watchFolder(notes.root, { onChange: (rel) => seen.push(rel), onError: (e) => seen.push(`error: ${e.message}`), onReady: () => (ready = true) });
    await vi.waitFor(() => expect(ready).toBe(true), WAIT);

    notes.write('photo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    notes.write('.note.md.swp', 'swap');
    notes.write('.draft.md', '# Hidden');
    notes.write('~$report.docx', 'owner');
    fs.mkdirSync(notes.path('trips'));
    notes.write('trips/._lisbon.md', new Uint8Array([0, 5, 22, 7]));
    notes.write('trips/lisbon.md', '# Lisbon\n\nTram 28 leaves from Martim Moniz.\n');
    await vi.waitFor(() => expect(seen).toContain('trips/lisbon.md'), WAIT);
    notes.remove('photo.png');
    notes.remove('trips/lisbon.md');
    await vi.waitFor(() => expect(seen.filter((s) => s === 'trips/lisbon.md')).toHaveLength(2), WAIT);

    expect(seen).toContain('trips');
    expect(seen.filter((s) => s !== 'trips' && s !== 'trips/lisbon.md')).toEqual([]);
  });
});
