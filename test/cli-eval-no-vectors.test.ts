import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;
let questions: string;

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-eval-novec-');
  notes.write('ops/keys.md', '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days.\n');
  notes.write('recipes/bread.md', '# Bread\n\nBake at 250 degrees for twenty minutes.\n');
  db = tempDbPath('quire-eval-novec-db-');
  questions = path.join(path.dirname(db.file), 'questions.json');
  fs.writeFileSync(questions, JSON.stringify([{ id: 'keys', question: 'How often are the deploy keys rotated?', chunk_fact: 'every ninety days', answerable: true }]));
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire eval with an embedding model Ollama does not have', () => {
  // docs/evaluation.md's model comparison names three models; one not pulled used to give its dense and
  // hybrid rows 0% and "errors 4" with no warning, and each question's error advised "quire embed".
  it('says once, with Ollama\'s reason, that the index has no vectors; the lexical row still runs', async () => {
    for (const attempt of ['first', 'reused index']) {
      const r = await quire(['eval', questions, '--docs', notes.root, '--embed-models', 'embeddinggemma,mxbai-embed-large', '--modes', 'lexical,dense', '--json']);
      expect(r.code, attempt).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.warnings, attempt).toHaveLength(1);
      expect(report.warnings[0]).toMatch(/^The index for mxbai-embed-large, heading:256 has no vectors, so its dense and hybrid configurations could not run: .*mxbai-embed-large/);
      expect(report.warnings[0]).toMatch(/ollama pull mxbai-embed-large/);
      const rows = report.configs.map((c: { embedModel: string; mode: string; errors: number }) => [c.embedModel, c.mode, c.errors]);
      // Keyword search uses no embedding model: one lexical row (run in the first model's index), not one per model.
      expect(rows).toEqual([['embeddinggemma', 'lexical', 0], ['embeddinggemma', 'dense', 0], ['mxbai-embed-large', 'dense', 1]]);
      const failed = report.perQuestion.filter((q: { error: unknown }) => q.error).map((q: { error: { message: string } }) => q.error.message);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatch(/^Asked for dense search but only lexical could run: /);
      expect(failed[0]).not.toMatch(/quire embed|\.\./);
    }
    const table = await quire(['eval', questions, '--docs', notes.root, '--embed-models', 'embeddinggemma,mxbai-embed-large', '--modes', 'lexical,dense']);
    expect(table.stdout).toMatch(/^Configurations:\n# +embed model .*\n1 +n\/a +heading:256 +6 +lexical +n\/a\n2 +embeddinggemma .*dense.*\n3 +mxbai-embed-large .*dense.*\nOne lexical row stands for every embedding model: keyword search uses none of them\.\n/m);
    const human = await quire(['eval', questions, '--docs', notes.root, '--embed-models', 'mxbai-embed-large', '--modes', 'dense']);
    expect(human.stdout).toMatch(/\nWarning: The index for mxbai-embed-large, heading:256 has no vectors/);
    // Nothing was measured: printed all the same, but a script must not read it as a result.
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/Every question run failed, so nothing was measured/);
    // Every question failed: the row measured nothing, so it shows "—" rather than 0%, which reads as a score.
    expect(human.stdout).toMatch(/^Configurations:\n# +embed model +chunker +k +mode +fusion\n1 +mxbai-embed-large +heading:256 +6 +dense +n\/a\n/m);
    expect(human.stdout).toMatch(/^Retrieval .*\n# +hit@1 .* errors\n1( +—){7} +1\n/m);
  });

  it('a retrieval-only table leaves out the answer columns, which would all be "—"', async () => {
    const r = await quire(['eval', questions, '--docs', notes.root, '--modes', 'lexical']);
    expect(r.code).toBe(0);
    const headers = r.stdout.split('\n').filter((l) => l.startsWith('# ')).map((l) => l.split(/ {2,}/));
    expect(headers).toEqual([
      ['#', 'embed model', 'chunker', 'k', 'mode', 'fusion'],
      ['#', 'hit@1', 'hit@3', 'hit@5', 'hit@k', 'MRR', 'fact sent', 'src tok p50', 'errors'],
      ['#', 'retr. p50/p95 ms'],
    ]);
    expect(r.stdout).toContain('Retrieval only (no --chat-models): answers were not scored.');
    const withAnswers = await quire(['eval', questions, '--docs', notes.root, '--modes', 'lexical', '--chat-models', 'llama3.2']);
    expect(withAnswers.stdout).toMatch(/^# +chat model +embed model/m);
    expect(withAnswers.stdout).toMatch(/^# +fact +cite ok .* changed$/m);
    expect(withAnswers.stdout).toMatch(/^# +retr\. p50\/p95 ms +gen\. p50\/p95 ms +tok\/s$/m);
  });

  // With chat models the one table was about 250 characters wide; --json is the report, unchanged.
  it('with chat models, fits a terminal 100 columns wide: configurations by number, then retrieval, answers and speed', async () => {
    const args = ['eval', questions, '--docs', notes.root, '--chat-models', 'llama3.2,qwen2.5:0.5b', '--modes', 'lexical,hybrid', '--fusion', 'rrf:60,weighted:0.3'];
    const r = await quire(args);
    expect(r.code).toBe(0);
    const tables = r.stdout.split('\n').filter((l) => !l.startsWith('Warning: '));
    for (const line of tables) expect([...line].length, line).toBeLessThanOrEqual(100);
    // Six configurations, numbered alike in every table.
    for (const title of ['Configurations:', 'Retrieval ', 'Answers ', 'Speed:']) {
      const at = tables.findIndex((l) => l.startsWith(title));
      expect(at, title).toBeGreaterThan(-1);
      expect(tables.slice(at + 2, at + 8).map((l) => l.split(/ +/)[0]), title).toEqual(['1', '2', '3', '4', '5', '6']);
    }
    expect(tables.some((l) => /^6 +qwen2\.5:0\.5b +embeddinggemma +heading:256 +6 +hybrid +weighted:0\.3$/.test(l))).toBe(true);
    const json = JSON.parse((await quire([...args, '--json'])).stdout);
    expect(json.configs).toHaveLength(6);
    expect(Object.keys(json.configs[0].metrics)).toEqual(expect.arrayContaining(['hit1', 'citationValid', 'promptTokens', 'latencyMs', 'tokensPerSecond']));
  });
});
