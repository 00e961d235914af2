import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

// A failed or stopped `quire ask` is not a turn of its conversation (shared/conversations.ts
// keepsTurn): it used to be stored as one, so the conversation counted and reopened answers that never were.

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const quire = (args: string[], host = ollama.url) => runCli(args, { OLLAMA_HOST: host, QUIRE_DB: db.file });
// Nothing listens on port 9: Ollama gone.
const NO_OLLAMA = 'http://127.0.0.1:9';
const turns = async () => (JSON.parse((await quire(['conversations', '--json'])).stdout) as { conversations: Array<{ id: number; turnCount: number }> }).conversations.map((c) => [c.id, c.turnCount]);

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-noturn-');
  notes.write('ops/keys.md', '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days. The platform team owns it.\n');
  db = tempDbPath('quire-cli-noturn-db-');
  expect((await quire(['import', notes.root, '--json'])).code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire ask that produced no answer', () => {
  it('with Ollama gone or Ctrl-C, adds no turn and says so; the next follow-up continues from the answered ones', async () => {
    const first = await quire(['ask', 'How often are the deploy keys rotated?', '--json']);
    const id = JSON.parse(first.stdout).conversationId as number;
    await expect(turns()).resolves.toEqual([[id, 1]]);

    const gone = await quire(['ask', 'Who owns the rotation?', '--conversation', String(id)], NO_OLLAMA);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(`Not added to conversation #${id}: there was no complete answer. Ask again with --conversation ${id}\n`);
    expect(gone.stdout).not.toContain(`Conversation #${id}: continue it`);
    const alone = await quire(['ask', 'How often are the deploy keys rotated?', '--json'], NO_OLLAMA);
    expect(JSON.parse(alone.stdout)).toMatchObject({ conversationId: null, error: { code: 'OLLAMA_UNREACHABLE' } });

    // Ctrl-C once the answer has begun: "(Stopped: … incomplete.)", and not kept.
    ollama.faults.streamDelayMs = 40;
    let stdout = '';
    try {
      const controller = new AbortController();
      const code = await main(['ask', 'Which team rotates the keys?', '--conversation', String(id)], {
        stdout: { write: (text: string) => ((stdout += text), stdout.trim().length > 0 && controller.abort()) },
        stderr: { write: () => true },
        env: { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file },
        signal: controller.signal,
      });
      expect(code).toBe(130);
    } finally {
      ollama.faults.streamDelayMs = 0;
    }
    expect(stdout).toContain('(Stopped: the answer above is incomplete.)');
    expect(stdout).toContain(`Not added to conversation #${id}`);

    await expect(turns()).resolves.toEqual([[id, 1]]);
    ollama.calls.reset();
    const next = await quire(['ask', 'And who owns it?', '--conversation', String(id)]);
    expect(next.code).toBe(0);
    const sent = JSON.stringify(ollama.calls.entries.filter((c) => c.path === '/api/chat').map((c) => c.body));
    expect(sent).not.toContain('Which team rotates the keys?');
    await expect(turns()).resolves.toEqual([[id, 2]]);
  });
});
