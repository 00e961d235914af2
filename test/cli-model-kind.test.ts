import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });
const models = async () => {
  const s = JSON.parse((await quire(['status', '--json'])).stdout) as { chatModel: string; embedModel: string };
  return { chat: s.chatModel, embed: s.embedModel };
};

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-kind-');
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-kind-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('a --model of the wrong kind', () => {
  // `import --model llama3.2` used to save the chat model as the embedding model (Ollama lists it),
  // so this and every later import made no vectors; `ask --model embeddinggemma` did the reverse.
  it('is refused before anything runs, naming what the model is, and the setting stays', async () => {
    const before = await models();
    const imported = await quire(['import', notes.root, '--model', 'llama3.2']);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toBe(
      'Error (WRONG_MODEL_KIND): Embedding model "llama3.2" was not saved: it is a chat model, not an embedding model (Ollama lists its capabilities as completion, tools).\n',
    );
    const asked = await quire(['ask', 'How often are the keys rotated?', '--model', 'embeddinggemma']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/^Error \(WRONG_MODEL_KIND\): Chat model "embeddinggemma" was not saved: it is an embedding model, not a chat model/);
    expect(await models()).toEqual(before);
  });

  it('models of the right kind are saved as before', async () => {
    expect((await quire(['import', notes.root, '--model', 'nomic-embed-text'])).code).toBe(0);
    expect((await quire(['ask', 'How often are the keys rotated?', '--model', 'qwen2.5:0.5b'])).code).toBe(0);
    expect(await models()).toEqual({ chat: 'qwen2.5:0.5b', embed: 'nomic-embed-text' });
  });
});
