import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API, type MethodName } from '../shared/contract';
import { ERROR_CODES } from '../shared/errors';
import { createEngine, type Engine } from '../electron/core/engine';
import { seededPicks, type SeededPicks } from './support/synthetic-index';
import { NotesFolder, tempDbPath } from './support/notes';
import { startStandin, type Standin } from './support/ollama-standin/server';

/**
 * Every contract method called with inputs its schema accepts but nobody would choose: ids that do
 * not exist or belong to something else, paths outside every folder, quotes, FTS and SQL syntax,
 * control characters, the longest and shortest strings and the extreme numbers the bounds allow.
 * Whatever a renderer (or a page that got hold of the channel) sends, the engine answers with a
 * result or with an error the UI can put in a sentence: one of the contract's codes, never INTERNAL
 * (a failure nobody anticipated) and never a thrown exception. Jobs started this way must end the
 * same way. Seeded, so a failure can be replayed.
 */

type Schema = z.ZodType;
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  options?: Schema[];
  element?: Schema;
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: Schema;
  valueType?: Schema;
  in?: Schema;
  checks?: Array<{ _zod: { def: { check: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number; format?: string } } }>;
}
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;


/** Values a schema accepts, drawn from `strings` for text; `undefined` for an optional part left out. */
function sample(schema: Schema, r: SeededPicks, strings: (key: string) => string[], depth = 0, key = ''): unknown {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'optional':
      return r.next() < 0.3 ? undefined : sample(def.innerType!, r, strings, depth, key);
    case 'nullable':
      return r.next() < 0.2 ? null : sample(def.innerType!, r, strings, depth, key);
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return r.next() < 0.3 ? undefined : sample(def.innerType!, r, strings, depth, key);
    case 'pipe':
      return sample(def.in!, r, strings, depth, key);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(def.shape ?? {})) {
        const v = sample(value, r, strings, depth + 1, name);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
    case 'union':
      return sample(r.pick(def.options!), r, strings, depth, key);
    case 'array': {
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = Math.min(checks.find((c) => c.check === 'max_length')?.maximum ?? 4, depth > 2 ? min : 4);
      return Array.from({ length: min + r.int(Math.max(1, max - min + 1)) }, () => sample(def.element!, r, strings, depth + 1, key));
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (let n = r.int(3); n > 0; n--) out[String(sample(def.keyType!, r, strings, depth + 1))] = sample(def.valueType!, r, strings, depth + 1);
      return out;
    }
    case 'enum':
      return r.pick(Object.values(def.entries!));
    case 'literal':
      return r.pick(def.values!);
    case 'boolean':
      return r.next() < 0.5;
    case 'number': {
      const lo = checks.find((c) => c.check === 'greater_than')?.value ?? -1e6;
      const hi = checks.find((c) => c.check === 'less_than')?.value ?? 1e6;
      const int = checks.some((c) => c.format === 'safeint' || c.format === 'int32');
      // Small whole numbers often: row ids (a conversation, a report) start at 1.
      const v = r.pick([lo, hi, lo + (hi - lo) * r.next(), 0, 1, -1, 1, 2]);
      const inRange = Math.min(hi, Math.max(lo, v));
      return int ? Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(inRange))) : inRange;
    }
    case 'string': {
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? 5000;
      let s = r.pick(strings(key));
      if (r.next() < 0.1) s = s.repeat(Math.ceil(max / Math.max(1, s.length)));
      s = s.slice(0, max);
      while (s.length < min) s += 'x';
      return s;
    }
    case 'unknown':
    case 'any':
      return r.pick([null, {}, [], 'x', 1]);
    default:
      return undefined;
  }
}

let standin: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine;
let known: { collection: string; chunk: string; conversation: string; report: string };
const errors: Array<{ method: string; input: unknown; code: string; message: string }> = [];

beforeAll(async () => {
  standin = await startStandin();
  notes = new NotesFolder('quire-fuzz-');
  notes.write('ops/keys.md', '# Deploy keys\n\nThe deploy keys are rotated every 90 days.\n\n## Rollback\n\nOld keys stay valid for 48 hours.\n');
  notes.write('food/bread.md', '# Bread\n\nThe loaf bakes at 250 degrees for twenty minutes.\n');
  notes.write('questions.json', JSON.stringify([{ id: 'q1', question: 'How often are deploy keys rotated?', chunk_fact: 'rotated every 90 days', answer_fact: '90 days', answerable: true, file: 'ops/keys.md' }]));
  dbFile = tempDbPath('quire-fuzz-db-');
  engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: standin.url }, sampleNotesDir: notes.root, evalDir: path.join(dbFile.file, '..', 'eval'), watch: false, backgroundUpkeep: false, ollamaBackoffMs: 1 });
  await engine.importFolder({ path: notes.root });
  const status = engine.indexStatus() as unknown as { collections?: Array<{ id: string }> };
  const library = (await engine.call('library', {})) as unknown as { collections: Array<{ id: string }> };
  const collection = library.collections[0]?.id ?? status.collections?.[0]?.id ?? 'none';
  const search = await engine.search({ query: 'deploy keys' });
  const chunk = search.results[0]?.chunkId ?? 'none';
  known = { collection, chunk, conversation: 'none', report: 'none' };
  // A stored conversation and evaluation report (ids 1), for the methods that read, rename or delete one.
  for await (const e of engine.ask({ question: 'How often are the deploy keys rotated?' })) if (e.type === 'done' || e.type === 'error') known.conversation = String(e.result.conversationId);
  const grid = { chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical' as const], fusions: ['rrf:60'], repeats: 1 };
  await engine.evaluate({ docs: notes.root, questions: [{ id: 'q1', question: 'How often are the deploy keys rotated?', expect: { answerable: true, chunkFact: 'every 90 days' } }] as never, questionSetName: 'fuzz', grid });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await standin?.close();
  notes?.dispose();
  dbFile?.dispose();
});

/**
 * Strings a field may be given: mostly real ids and paths of this index for a field named for one
 * (so the method gets past "not found" to its real work), else text that breaks naive code.
 */
const pool = (key: string, r: SeededPicks) => {
  const ids = [known.collection, known.chunk, known.conversation, known.report];
  const paths = [notes.root, path.join(notes.root, 'ops'), path.join(notes.root, 'ops', 'keys.md'), path.join(notes.root, 'questions.json'), 'ops', 'ops/keys.md', 'questions.json'];
  if (/id$/i.test(key) && r.next() < 0.7) return ids;
  if (/path|root|docs|folder|file|questions/i.test(key) && r.next() < 0.7) return paths;
  return adversarial();
};
const adversarial = () => [
  '',
  'x',
  known.collection,
  known.chunk,
  `${known.chunk}0`,
  known.conversation,
  known.report,
  notes.root,
  path.join(notes.root, 'ops'),
  path.join(notes.root, 'ops', 'keys.md'),
  path.join(notes.root, 'questions.json'),
  'ops',
  'ops/keys.md',
  '../..',
  '/',
  '/etc/passwd',
  'C:\\Windows',
  '~',
  'questions.json',
  'deploy keys',
  '"',
  "'; DROP TABLE chunks; --",
  'NEAR(a b) OR * AND -x ^y :z',
  '%_\\',
  '\u0000\u0001\u001b[31m',
  '\u202e名前 🙂 é',
  '   ',
  'rrf:60',
  'weighted:0.3',
  'heading:256',
  'recursive:1000/100',
  'fixed:0/0',
  'embeddinggemma',
  'llama3.2',
  'no-such-model:latest',
  'http://127.0.0.1:9',
  'https://[::1]:1/',
  'X-Token',
  '{"a":1}',
  '-1',
  '1e309',
];

const methods = Object.keys(API) as MethodName[];
/** Inputs per method; more when looking for trouble: QUIRE_FUZZ_ROUNDS=200 npx vitest run test/contract-fuzz.test.ts */
const ROUNDS = Number(process.env.QUIRE_FUZZ_ROUNDS ?? 12);
// Not called: these act on this machine rather than on the index (a native dialog, the system's
// file opener) and answer "not supported" in this shell whatever they are given.
const SKIP = new Set<MethodName>(['chooseFolder', 'openSourceFile']);

/** How the jobs started here ended: their errors, and a wait for one to end. */
const jobErrors: Array<{ code: string; message: string }> = [];
const ended = new Map<string, () => void>();
const done = new Set<string>();
const jobEnded = (jobId: string) => (done.has(jobId) ? Promise.resolve() : new Promise<void>((resolve) => ended.set(jobId, resolve)));

describe('the contract under inputs nobody would choose', () => {
  beforeAll(() => {
    engine.onEvent((event) => {
      if (event.type !== 'job.done') return;
      if (event.error) jobErrors.push(event.error);
      done.add(event.jobId);
      ended.get(event.jobId)?.();
    });
  });
  // A method may have forgotten the folder or changed a setting: each starts from the folder imported, ids known.
  beforeEach(async () => {
    await engine.saveSettings({ ollamaHost: standin.url, chatModel: 'llama3.2', embedModel: 'embeddinggemma', force: true });
    await engine.importFolder({ path: notes.root });
    const library = (await engine.call('library', {})) as unknown as { collections: Array<{ id: string }> };
    known.collection = library.collections[0]?.id ?? 'none';
    known.chunk = (await engine.search({ query: 'deploy keys', mode: 'lexical' })).results[0]?.chunkId ?? 'none';
  });
  afterAll(() => {
    if (process.env.QUIRE_FUZZ_REPORT) for (const e of errors) console.log(e.method, e.code, e.message.slice(0, 140));
  });

  it.each(methods.filter((m) => !SKIP.has(m)))('%s answers with a result or a known error', async (method) => {
    const r = seededPicks([...method].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7));
    const schema = API[method].input as Schema;
    let accepted = 0;
    for (let i = 0; i < ROUNDS; i++) {
      let input = sample(schema, r, (key) => pool(key, r));
      // A patch of many optional fields (setSettings) is rarely valid in every field at once: the
      // fields refused are left out, and the rest is still an input nobody would choose.
      const first = schema.safeParse(input ?? {});
      if (!first.success && input !== null && typeof input === 'object' && !Array.isArray(input)) {
        const refused = new Set(first.error.issues.map((i) => i.path[0]));
        input = Object.fromEntries(Object.entries(input).filter(([k]) => !refused.has(k)));
      }
      if (!schema.safeParse(input ?? {}).success) continue;
      accepted++;
      const result = await engine.dispatch(method, input);
      if (!result.ok) {
        expect(ERROR_CODES, `${method} ${JSON.stringify(input)}`).toContain(result.error.code);
        errors.push({ method, input, ...result.error });
        expect(result.error.code, `${method} ${JSON.stringify(input)}: ${result.error.message}`).not.toBe('INTERNAL');
        expect(result.error.message.length).toBeGreaterThan(0);
      }
      // A job this started is cancelled before the next input (or ends first): how it ended is checked below.
      const jobId = result.ok ? (result.value as { jobId?: unknown } | null)?.jobId : undefined;
      if (typeof jobId === 'string') {
        await engine.dispatch('cancel', { jobId });
        await jobEnded(jobId);
      }
    }
    for (const e of jobErrors.splice(0)) {
      expect(ERROR_CODES).toContain(e.code);
      expect(e.code, `${method} job: ${e.message}`).not.toBe('INTERNAL');
    }
    if (process.env.QUIRE_FUZZ_REPORT) console.log(method, 'accepted', accepted, 'of', ROUNDS);
    expect(accepted, `no sampled input of ${method} passed its own schema`).toBeGreaterThan(0);
    // Some inputs wait on an Ollama that is not there (setSettings confirming a model at a dead address).
  }, Math.max(30_000, ROUNDS * 1_000));
});
