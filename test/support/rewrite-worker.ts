/**
 * A writer in its own thread, with its own connection: rewrites every note with the next version
 * and imports the folder, `rounds` times, while the test's thread reads. Posts 'done' at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../electron/core/db/open';
import { importFolder } from '../../electron/core/ingest/pipeline';
import { versionedNote } from './versioned-notes';

const { dbFile, root, notes, rounds } = workerData as { dbFile: string; root: string; notes: number; rounds: number };
const db = openDatabase(dbFile);
try {
  for (let v = 2; v <= rounds + 1; v++) {
    for (let i = 0; i < notes; i++) fs.writeFileSync(path.join(root, `n${i}.md`), versionedNote(i, v));
    await importFolder(db, root, { embedding: null, chunker: { kind: 'heading', maxTokens: 48 } });
  }
} finally {
  db.close();
}
parentPort?.postMessage('done');
