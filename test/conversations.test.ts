import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnswerResult } from '../shared/answer';
import type { Input, MethodName, Output } from '../shared/contract';
import { useEngineFixture } from './support/engine-fixture';

// Conversations that last (#16.1): every ask is stored as a turn of a conversation, which can be
// listed, searched by title, reopened as it was, continued with its history, renamed and deleted.

const f = useEngineFixture({
  prefix: 'quire-conv',
  notes: {
    'ops/keys.md': '# Keys\n\nWe rotate the deploy keys every 90 days. The platform team owns the rotation.\n',
    'kitchen/bread.md': '# Sourdough\n\nThe sourdough loaf bakes at 250 degrees for 40 minutes.\n',
  },
});

async function call<M extends MethodName>(method: M, input: Input<M>): Promise<Output<M>> {
  return f.engine.call(method, input);
}

async function run(input: Input<'ask'>): Promise<AnswerResult> {
  let result: AnswerResult | null = null;
  for await (const e of f.engine.ask(input)) if (e.type === 'done' || e.type === 'error') result = e.result;
  if (!result) throw new Error('no result');
  return result;
}

async function ask(question: string, conversationId?: number): Promise<AnswerResult> {
  return run(conversationId === undefined ? { question } : { question, conversationId });
}

async function imported(): Promise<void> {
  await f.engine.importFolder({ path: f.notes.root });
}

describe('conversations', () => {
  it('stores each answer as a turn and reopens the conversation exactly as it was answered', async () => {
    await imported();
    const first = await ask('How often are the deploy keys rotated?');
    expect(first.conversationId).toEqual(expect.any(Number));
    expect(first.citations.length).toBeGreaterThan(0);

    const stored = await call('conversation', { id: first.conversationId! });
    expect(stored).toMatchObject({ id: first.conversationId, title: 'How often are the deploy keys rotated?', turnCount: 1 });
    expect(stored.turns).toHaveLength(1);
    const turn = stored.turns[0]!;
    expect(turn.runId).toBe(first.runId);
    // The same answer, citations with their checks, budget, retrieval trace and flags.
    expect(turn.result?.answer).toBe(first.answer);
    expect(turn.result?.citations).toEqual(first.citations);
    expect(turn.result?.budget).toEqual(first.budget);
    expect(turn.result?.retrieval).toEqual(first.retrieval);
    expect(turn.result?.flags).toEqual(first.flags);
    expect(turn.result?.status).toBe(first.status);
  });

  it('continues a conversation: the follow-up is a second turn and its stored turns are the history', async () => {
    await imported();
    const first = await ask('How often are the deploy keys rotated?');
    const id = first.conversationId!;
    const second = await ask('Who owns that?', id);
    expect(second.conversationId).toBe(id);
    // The run records how many earlier exchanges it was sent; the rewrite prompt carries the first question.
    expect(f.db.prepare('SELECT history_turns FROM runs WHERE id = ?').pluck().get(second.runId)).toBe(1);
    expect(JSON.stringify(f.ollama.calls.entries.filter((c) => c.path === '/api/chat').map((c) => c.body))).toContain('How often are the deploy keys rotated?');

    const stored = await call('conversation', { id });
    expect(stored.turns.map((t) => t.question)).toEqual(['How often are the deploy keys rotated?', 'Who owns that?']);
    expect((await call('conversations', {})).conversations).toHaveLength(1);
  });

  it('a failed or stopped ask is not a turn: the conversation, its history and the list hold only answers', async () => {
    await imported();
    const first = await ask('How often are the deploy keys rotated?');
    const id = first.conversationId!;

    // Ollama gone: the passages are found by keywords, but nothing answered them.
    await f.ollama.stop();
    try {
      const failed = await ask('Who owns the rotation then?', id);
      expect(failed.status).toBe('error');
      expect(failed.conversationId).toBeUndefined();
      // Nor does a first question that failed make a conversation of its own.
      const alone = await ask('How hot does the sourdough bake?');
      expect(alone.status).toBe('error');
      expect(alone.conversationId).toBeUndefined();
    } finally {
      await f.ollama.start();
    }

    // Stopped mid-answer: its text is incomplete, so it is not kept either.
    f.ollama.faults.streamDelayMs = 30;
    const controller = new AbortController();
    let stopped: AnswerResult | null = null;
    try {
      for await (const e of f.engine.ask({ question: 'Which team rotates the keys?', conversationId: id }, controller.signal)) {
        if (e.type === 'token') controller.abort();
        if (e.type === 'done' || e.type === 'error') stopped = e.result;
      }
    } finally {
      f.ollama.faults.streamDelayMs = 0;
    }
    expect(stopped).toMatchObject({ status: 'cancelled', answer: expect.stringMatching(/\S/) });
    expect(stopped!.conversationId).toBeUndefined();
    // Each is still a run: the trace of what happened.
    expect(f.db.prepare("SELECT status FROM runs ORDER BY id").pluck().all()).toEqual(['answered', 'error', 'error', 'cancelled']);

    const stored = await call('conversation', { id });
    expect(stored.turns.map((t) => t.question)).toEqual(['How often are the deploy keys rotated?']);
    expect((await call('conversations', {})).conversations.map((c) => [c.id, c.turnCount])).toEqual([[id, 1]]);
    // The next follow-up is sent the one answered turn, not the questions that got none.
    f.ollama.calls.reset();
    const next = await ask('And who owns it?', id);
    expect(f.db.prepare('SELECT history_turns FROM runs WHERE id = ?').pluck().get(next.runId)).toBe(1);
    const sent = JSON.stringify(f.ollama.calls.entries.filter((c) => c.path === '/api/chat').map((c) => c.body));
    expect(sent).toContain('How often are the deploy keys rotated?');
    expect(sent).not.toContain('Which team rotates the keys?');
    expect(sent).not.toContain('Who owns the rotation then?');
    expect((await call('conversation', { id })).turns).toHaveLength(2);
  });

  it("a follow-up that names no folders is asked of the ones the conversation's last question was; one that names them, or none ([]), is not", async () => {
    await imported();
    const folder = (await call('library', {})).collections[0]!.id;
    const first = await run({ question: 'How often are the deploy keys rotated?', collections: [{ collectionId: folder, path: 'ops' }] });
    expect(first.scope).toEqual([{ id: folder, name: expect.any(String), path: 'ops' }]);
    const id = first.conversationId!;

    const followUp = await run({ question: 'How hot does the sourdough bake?', conversationId: id });
    expect(followUp.scope).toEqual(first.scope);
    // Only ops/ was searched, so the bread note cannot be among the passages.
    expect(followUp.retrieval.map((c) => c.path)).not.toContain('kitchen/bread.md');

    const everywhere = await run({ question: 'How hot does the sourdough bake?', conversationId: id, collections: [] });
    expect(everywhere.scope).toEqual([]);
    expect(everywhere.retrieval.map((c) => c.path)).toContain('kitchen/bread.md');
    // The last question was asked of every folder, so the next one is too.
    expect((await run({ question: 'And the loaf?', conversationId: id })).scope).toEqual([]);
    // Reopened, each turn names the folders it was asked of (the app's picker takes the last one's).
    const ops = [{ collectionId: folder, path: 'ops' }];
    expect((await call('conversation', { id })).turns.map((t) => t.scope)).toEqual([ops, ops, [], []]);
  });

  it("a follow-up is refused, not asked of every folder, when its conversation's folders are gone, even once its last answer was removed; [] still asks of all", async () => {
    await imported();
    const folder = (await call('library', {})).collections[0]!.id;
    const ops = [{ collectionId: folder, path: 'ops' }];
    // One answer quotes ops/keys.md; the other found nothing there, so quotes nothing.
    const quoting = await run({ question: 'How often are the deploy keys rotated?', collections: ops });
    const empty = await run({ question: 'Which zebras migrate north?', collections: ops });
    expect(empty.refusedWithoutModel).toBe(true);
    // ops/ is emptied: the keys note goes, and with it the answer (run) that quoted it.
    fs.rmSync(f.notes.path('ops'), { recursive: true });
    await imported();
    const followUp = { question: 'How hot does the sourdough bake?' };
    expect(f.db.prepare('SELECT count(*) FROM runs WHERE id = ?').pluck().get(quoting.runId)).toBe(0);
    // Before, the first was asked of every folder: only the deleted run held its folders.
    for (const id of [quoting.conversationId!, empty.conversationId!]) {
      await expect(run({ ...followUp, conversationId: id })).rejects.toMatchObject({ code: 'COLLECTION_NOT_FOUND', message: expect.stringContaining('no imported document') });
    }
    // The turns still name the folders they were asked of (the reader drops those gone), the answer's run gone or not.
    for (const id of [quoting.conversationId!, empty.conversationId!]) expect((await call('conversation', { id })).turns.map((t) => [t.scope, t.result === null])).toEqual([[ops, id === quoting.conversationId]]);
    for (const id of [quoting.conversationId!, empty.conversationId!]) expect((await run({ ...followUp, conversationId: id, collections: [] })).scope).toEqual([]);
    // A turn from before its folders were kept with it (migration 0015), whose run is gone: not known, so not guessed.
    f.db.prepare('UPDATE conversation_turns SET scope = NULL WHERE conversation_id = ?').run(quoting.conversationId!);
    await expect(run({ ...followUp, conversationId: quoting.conversationId! })).rejects.toMatchObject({ code: 'COLLECTION_NOT_FOUND', message: expect.stringContaining('not known') });
    expect((await call('conversation', { id: quoting.conversationId! })).turns.map((t) => t.scope)).toEqual([null, null]);
  });

  it('lists newest first, searches titles, and renames', async () => {
    await imported();
    const keys = (await ask('How often are the deploy keys rotated?')).conversationId!;
    const bread = (await ask('How hot does the sourdough bake?')).conversationId!;
    expect((await call('conversations', {})).conversations.map((c) => c.id)).toEqual([bread, keys]);
    // Continuing the older one makes it the newest.
    await ask('Who owns the rotation?', keys);
    expect((await call('conversations', {})).conversations.map((c) => c.id)).toEqual([keys, bread]);

    expect((await call('conversations', { query: 'SOURDOUGH' })).conversations.map((c) => c.id)).toEqual([bread]);
    // LIKE's wildcards are matched as typed.
    expect((await call('conversations', { query: '%' })).conversations).toEqual([]);

    expect(await call('renameConversation', { id: bread, title: '  Oven temperature  ' })).toEqual({ title: 'Oven temperature' });
    expect((await call('conversations', { query: 'oven' })).conversations.map((c) => [c.id, c.title])).toEqual([[bread, 'Oven temperature']]);
    await expect(call('renameConversation', { id: 999, title: 'x' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });

  it('deleting a conversation removes its turns and its runs, and nothing else', async () => {
    await imported();
    const keep = await ask('How hot does the sourdough bake?');
    const gone = await ask('How often are the deploy keys rotated?');
    await ask('Who owns the rotation?', gone.conversationId!);
    const runs = () => f.db.prepare('SELECT id FROM runs ORDER BY id').pluck().all();
    expect(runs()).toHaveLength(3);

    expect(await call('deleteConversation', { id: gone.conversationId! })).toEqual({ runs: 2 });
    expect(runs()).toEqual([keep.runId]);
    expect(f.db.prepare('SELECT count(*) FROM conversation_turns').pluck().get()).toBe(1);
    expect((await call('conversations', {})).conversations.map((c) => c.id)).toEqual([keep.conversationId]);
    await expect(call('conversation', { id: gone.conversationId! })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    // A follow-up to a deleted conversation is refused at once.
    expect(await f.engine.dispatch('ask', { question: 'And then?', conversationId: gone.conversationId! })).toMatchObject({ ok: false, error: { code: 'CONVERSATION_NOT_FOUND' } });
  });

  it('a turn whose run was deleted with a forgotten folder shows as removed, and is left out of the history', async () => {
    await imported();
    const first = await ask('How often are the deploy keys rotated?');
    const id = first.conversationId!;
    expect(first.citations.some((c) => c.path?.startsWith('ops/'))).toBe(true);
    await f.engine.forgetFolder(f.notes.root);

    const stored = await call('conversation', { id });
    expect(stored.turns).toHaveLength(1);
    expect(stored.turns[0]).toMatchObject({ question: 'How often are the deploy keys rotated?', runId: first.runId, result: null });
    const next = await ask('And the sourdough?', id);
    expect(f.db.prepare('SELECT history_turns FROM runs WHERE id = ?').pluck().get(next.runId)).toBe(0);
  });
});
