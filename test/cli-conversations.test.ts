import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

// `quire conversations` and `quire ask --conversation ID` (#16.1), run in-process.

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-conv-');
  notes.write('ops/keys.md', '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days. The platform team owns it.\n');
  notes.write('kitchen/bread.md', '# Bread\n\nBake the sourdough loaf at 230 degrees for forty minutes.\n');
  db = tempDbPath('quire-cli-conv-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire conversations', () => {
  it('lists none at first, then each question as a conversation, and ask --conversation continues one', async () => {
    expect(JSON.parse((await quire(['conversations', '--json'])).stdout)).toEqual({ conversations: [] });
    expect((await quire(['import', notes.root, '--json'])).code).toBe(0);

    const first = await quire(['ask', 'How often are the deploy keys rotated?', '--json']);
    expect(first.code).toBe(0);
    const id = JSON.parse(first.stdout).conversationId as number;
    expect(id).toEqual(expect.any(Number));

    // The follow-up is searched as the model rewrote it, and the person is shown what was searched.
    ollama.script('Who owns the rotation of the deploy keys?');
    const followUp = await quire(['ask', 'Who owns it?', '--conversation', String(id)]);
    expect(followUp.code).toBe(0);
    expect(followUp.stdout).toContain(`Conversation #${id}: continue it with --conversation ${id}`);
    expect(followUp.stderr).toBe('Searched for: Who owns the rotation of the deploy keys?\n');
    expect(followUp.stdout).toMatch(/; 1 source sent\.\n/);

    const listed = JSON.parse((await quire(['conversations', '--json'])).stdout) as { conversations: Array<{ id: number; title: string; turnCount: number; updatedAt: string }> };
    expect(listed.conversations).toEqual([expect.objectContaining({ id, title: 'How often are the deploy keys rotated?', turnCount: 2 })]);

    const human = await quire(['conversations']);
    expect(human.stdout).toMatch(new RegExp(`^${id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+2 turns\\s+How often are the deploy keys rotated\\?$`, 'm'));
    // Times are this computer's, not the stored UTC: in India (UTC+5:30) the minutes differ by 30.
    const updatedAt = listed.conversations[0]!.updatedAt;
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      const local = new Date(Date.parse(updatedAt) + 5.5 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
      expect((await quire(['conversations'])).stdout).toMatch(new RegExp(`^${id}\\s+${local}\\s+2 turns`, 'm'));
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect((await quire(['conversations', 'nothing like this'])).stdout).toContain('No conversation');
  });

  it('before any import, ask and search say the index is empty, not only "Not in the documents."', async () => {
    const empty = tempDbPath('quire-cli-empty-');
    try {
      const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: empty.file, npm_lifecycle_event: '' };
      const note = `Note: nothing is imported in ${empty.file} yet. Try: quire import ~/notes\n`;
      const asked = await runCli(['ask', 'How often are the deploy keys rotated?'], env);
      expect(asked.stdout).toMatch(/^Not in the documents\./);
      expect(asked.stderr).toBe(note);
      expect((await runCli(['search', 'deploy keys'], env)).stderr).toBe(note);
    } finally {
      empty.dispose();
    }
  });

  it("a follow-up keeps its conversation's folders unless --collection names others or --all-folders asks of every one", async () => {
    expect((await quire(['import', notes.root, '--json'])).code).toBe(0);
    const first = JSON.parse((await quire(['ask', 'How often are the deploy keys rotated?', '--collection', notes.path('ops'), '--json'])).stdout) as { scope: string[]; conversationId: number };
    expect(first.scope).toHaveLength(1);
    const id = String(first.conversationId);
    const scopeOf = async (args: string[]) => (JSON.parse((await quire(['ask', 'How long does the sourdough bake?', '--conversation', id, ...args, '--json'])).stdout) as { scope: string[] }).scope;
    expect(await scopeOf([])).toEqual(first.scope);
    expect(await scopeOf(['--all-folders'])).toEqual([]);
    // Asked of every folder last, the next follow-up is too.
    expect(await scopeOf([])).toEqual([]);
    const both = await quire(['ask', 'Anything?', '--conversation', id, '--all-folders', '--collection', notes.path('ops')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--all-folders and --collection');
    expect((await quire(['ask', '--help'])).stdout).toMatch(/--conversation ID .*\n.*its last question's folders/);
  });

  it('ask --conversation with an unknown or malformed id fails clearly', async () => {
    const unknown = await quire(['ask', 'Anything?', '--conversation', '9999', '--json']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr + unknown.stdout).toContain('CONVERSATION_NOT_FOUND');
    const malformed = await quire(['ask', 'Anything?', '--conversation', 'abc']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--conversation takes a whole number');
  });
});
