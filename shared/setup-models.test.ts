import { describe, expect, it } from 'vitest';
import { catalogued, DISK_RESERVE_BYTES, formatSize, MODEL_CATALOGUE, recommendModels } from './setup-models';

const GB = 1e9;
/** What os.totalmem reports on a computer sold as that many GB (a little is the firmware's). */
const sold = (gb: number) => gb * 2 ** 30 * 0.96;
const missing = (chat = 'llama3.2', embedding = 'embeddinggemma') => ({ chat: { name: chat, installed: false }, embedding: { name: embedding, installed: false } });

describe('recommendModels', () => {
  it("a big machine gets Settings' defaults, with their real download sizes", () => {
    const r = recommendModels({ memoryBytes: sold(32), freeDiskBytes: 500 * GB }, missing());
    expect(r.chat).toMatchObject({ name: 'llama3.2', downloadBytes: 2_019_393_189 });
    expect(r.embedding).toMatchObject({ name: 'embeddinggemma', downloadBytes: 621_875_417 });
    expect(r.chat!.why).toMatch(/^Quire's default \(2\.0 GB download\); it fits this computer's 33\.0 GB of memory\.$/);
  });

  it('an 8 GB computer still gets the defaults; a 6 GB one steps the chat model down and says why', () => {
    expect(recommendModels({ memoryBytes: sold(8), freeDiskBytes: null }, missing()).chat?.name).toBe('llama3.2');
    const r = recommendModels({ memoryBytes: sold(6), freeDiskBytes: null }, missing());
    // The embedding model is kept: changing it later means embedding every document again.
    expect(r.embedding?.name).toBe('embeddinggemma');
    expect(r.chat?.name).toBe('llama3.2:1b');
    expect(r.chat!.why).toContain('Smaller than llama3.2 (1.3 GB download): llama3.2 needs about 3.2 GB of memory, and with embeddinggemma beside it that is more than half of');
  });

  it('a very small machine gets the smallest chat model, and a smaller embedding model only when it must', () => {
    const four = recommendModels({ memoryBytes: sold(4), freeDiskBytes: null }, missing());
    expect([four.chat?.name, four.embedding?.name]).toEqual(['qwen2.5:0.5b', 'embeddinggemma']);
    const two = recommendModels({ memoryBytes: sold(2), freeDiskBytes: null }, missing());
    expect([two.chat?.name, two.embedding?.name]).toEqual(['qwen2.5:0.5b', 'all-minilm']);
    expect(two.embedding!.why).toMatch(/^Smaller than embeddinggemma .*search by meaning is a little less sharp\.$/);
  });

  it('never more than the free disk holds, keeping a reserve', () => {
    // Room for llama3.2:1b and embeddinggemma, not llama3.2 beside it.
    const disk = 1_321_098_329 + 621_875_417 + DISK_RESERVE_BYTES + 1;
    const r = recommendModels({ memoryBytes: sold(32), freeDiskBytes: disk }, missing());
    expect([r.chat?.name, r.embedding?.name]).toEqual(['llama3.2:1b', 'embeddinggemma']);
    expect(r.chat!.downloadBytes + r.embedding!.downloadBytes).toBeLessThanOrEqual(disk - DISK_RESERVE_BYTES);
    expect(r.chat!.why).toContain('llama3.2 (2.0 GB) would not fit in the 2.4 GB free on disk');
    // Not even the smallest pair: nothing is recommended rather than a download that cannot land.
    const none = recommendModels({ memoryBytes: sold(32), freeDiskBytes: 100e6 }, missing());
    expect([none.chat, none.embedding]).toEqual([null, null]);
  });

  it('an installed model is not recommended again, and costs no disk', () => {
    const disk = 2_019_393_189 + DISK_RESERVE_BYTES + 1;
    const r = recommendModels({ memoryBytes: sold(16), freeDiskBytes: disk }, { chat: { name: 'llama3.2', installed: false }, embedding: { name: 'embeddinggemma', installed: true } });
    expect(r.embedding).toBeNull();
    expect(r.chat?.name).toBe('llama3.2');
  });

  it("a model Settings name is offered when Quire knows its size; one it does not know is named in the sentence", () => {
    const chosen = recommendModels({ memoryBytes: sold(32), freeDiskBytes: null }, missing('qwen3:8b', 'bge-m3'));
    expect([chosen.chat?.name, chosen.embedding?.name]).toEqual(['qwen3:8b', 'bge-m3']);
    expect(chosen.chat!.why).toMatch(/^The model Settings name \(5\.2 GB download\)/);
    const unknown = recommendModels({ memoryBytes: sold(32), freeDiskBytes: null }, missing('mistral-nemo'));
    expect(unknown.chat?.name).toBe('llama3.2');
    expect(unknown.chat!.why).toContain('Settings name mistral-nemo, whose size Quire does not know');
  });
});

describe('the catalogue', () => {
  it('names each model once, by the name `ollama pull` takes', () => {
    const names = MODEL_CATALOGUE.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(catalogued('LLAMA3.2:latest')?.name).toBe('llama3.2');
    expect(catalogued('mistral')).toBeNull();
  });

  it('says sizes as Ollama’s library does', () => {
    expect([formatSize(2_019_393_189), formatSize(397_821_319), formatSize(45_960_996)]).toEqual(['2.0 GB', '398 MB', '46 MB']);
  });
});
