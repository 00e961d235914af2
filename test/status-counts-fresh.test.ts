import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../electron/core/engine';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

// Right after an import the status bar said 89 documents while 116 were indexed, for about 5 s: a
// status asked during the import waited on Ollama's check with counts read before it.

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;
let engine: Engine;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-status-fresh-');
  for (let i = 0; i < 5; i++) notes.write(`n${i}.md`, `# Note ${i}\n\nThe deploy keys rotate every ${i + 2} weeks.\n`);
  db = tempDbPath('quire-status-fresh-db-');
  engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: ollama.url } });
});

afterAll(async () => {
  await engine?.close();
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('status while Ollama is slow to answer its check', () => {
  it('counts what is indexed when it answers, not when it was asked', async () => {
    // The parse worker started and the database made beforehand, so the import below is quick.
    const first = new NotesFolder('quire-status-fresh-first-');
    first.write('a.md', '# A\n\nA first note.\n');
    await engine.importFolder({ path: first.root, embed: false });
    first.dispose();
    ollama.faults.hang = ['/api/version'];
    try {
      let answered = false;
      const asked = engine.call('status', {}).finally(() => (answered = true));
      await engine.importFolder({ path: notes.root, embed: false });
      // The check gives up after 2 s: the import must have ended inside it for this to say anything.
      expect(answered, 'the import outlasted Ollama\'s check').toBe(false);
      const status = await asked;
      expect(status.ollama.connected).toBe(false);
      expect(status.documents.total).toBe(6);
      expect(status.chunks).toBeGreaterThanOrEqual(6);
    } finally {
      ollama.faults.hang = false;
    }
  });
});
