import { describe, expect, it } from 'vitest';
import type { DocumentInput, Embedder } from '../ollama/embedder';
import { EmbedQueue } from './embed-queue';

/** An embedder whose requests are answered when the test says: each vector is [the input's number]. */
function heldEmbedder(batchSize: number) {
  const pending: Array<{ inputs: readonly DocumentInput[]; resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }> = [];
  let out = 0;
  let most = 0;
  const embedder = {
    batchSize,
    embedDocuments(inputs: readonly DocumentInput[], signal?: AbortSignal) {
      out++;
      most = Math.max(most, out);
      return new Promise<Float32Array[]>((resolve, reject) => {
        const done = () => out--;
        signal?.addEventListener('abort', () => (done(), reject(new Error('aborted'))), { once: true });
        pending.push({ inputs, resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) });
      });
    },
  } as unknown as Embedder;
  const answer = (i = 0) => {
    const [r] = pending.splice(i, 1);
    r!.resolve(r!.inputs.map((d) => Float32Array.of(Number(d.text))));
  };
  return { embedder, pending, answer, most: () => most };
}

const inputs = (...ns: number[]) => ns.map((n) => ({ text: String(n), title: '' }));
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('EmbedQueue', () => {
  it('keeps up to inFlight requests out while documents keep coming, and no more', async () => {
    const e = heldEmbedder(2);
    const q = new EmbedQueue<string>(e.embedder, undefined, 2);
    // Two full batches go out without the caller waiting for either.
    expect(await q.add('a', inputs(1, 2))).toEqual([]);
    expect(await q.add('b', inputs(3, 4))).toEqual([]);
    expect(e.pending).toHaveLength(2);
    // A third must wait for a request to come back.
    let third = false;
    const adding = q.add('c', inputs(5, 6)).then((done) => ((third = true), done));
    await settle();
    expect(third).toBe(false);
    e.answer(1); // the second batch answers first
    await settle();
    // c's batch is out now; a (first batch) is still missing, so nothing is complete in order yet.
    expect(await adding).toEqual([]);
    expect(e.pending).toHaveLength(2);
    expect(e.most()).toBe(2);
    e.answer(0);
    e.answer(0);
    const rest = await q.drain();
    expect(rest.map((d) => [d.payload, d.vectors.map((v) => v[0])])).toEqual([
      ['a', [1, 2]],
      ['b', [3, 4]],
      ['c', [5, 6]],
    ]);
  });

  it('with one in flight, waits for each batch as before', async () => {
    const e = heldEmbedder(2);
    const q = new EmbedQueue<string>(e.embedder, undefined, 1);
    await q.add('a', inputs(1, 2));
    const adding = q.add('b', inputs(3, 4));
    await settle();
    expect(e.pending).toHaveLength(1);
    e.answer();
    await settle();
    e.answer();
    expect((await adding).map((d) => d.payload)).toEqual(['a']);
    expect((await q.drain()).map((d) => d.payload)).toEqual(['b']);
    expect(e.most()).toBe(1);
  });

  it('reports a failed request once the others have settled, and keeps what they brought', async () => {
    const e = heldEmbedder(1);
    const q = new EmbedQueue<string>(e.embedder, undefined, 2);
    await q.add('a', inputs(1));
    await q.add('b', inputs(2));
    e.pending.shift()!.reject(new Error('Ollama fell over'));
    const draining = q.drain();
    let settled = false;
    void draining.catch(() => (settled = true));
    await settle();
    expect(settled).toBe(false); // b's request is still out
    e.answer();
    await expect(draining).rejects.toThrow('Ollama fell over');
    const left = q.abandon();
    expect(left.map((d) => [d.payload, d.vectors?.map((v) => v[0]) ?? null])).toEqual([
      ['a', null],
      ['b', [2]],
    ]);
  });

  it('abandoning ends the requests still out', async () => {
    const e = heldEmbedder(1);
    const q = new EmbedQueue<string>(e.embedder, undefined, 2);
    await q.add('a', inputs(1));
    await q.add('b', inputs(2));
    expect(q.abandon().map((d) => d.vectors)).toEqual([null, null]);
    await settle();
    expect(e.pending).toHaveLength(2); // the held promises were rejected through their signal
    expect(e.most()).toBe(2);
  });
});
