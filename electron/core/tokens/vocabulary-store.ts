// Vocabularies kept on disk by model digest, beside the database (<data dir>/vocabularies/), so a
// model's vocabulary is fetched from Ollama once per model version. A digest names the model's
// exact bytes, so a file never goes stale; it is deleted when Ollama no longer lists the digest.
// Format: gzip of one JSON object, the token types and scores as base64 of their typed arrays
// (a Llama 3 vocabulary with its merges is about 2 MB).
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Vocabulary } from './vocabulary';

const FORMAT = 1;
const SUFFIX = '.vocab.gz';
const DIGEST = /^[0-9a-f]{12,128}$/;

interface Stored {
  format: number;
  model: Vocabulary['model'];
  pre: string;
  tokens: string[];
  types: string;
  merges: string[];
  scores: string;
  bos: number | null;
  eos: number | null;
  addBos: boolean;
  addSpacePrefix: boolean;
}

export class VocabularyStore {
  constructor(readonly dir: string) {}

  private file(digest: string): string {
    if (!DIGEST.test(digest)) throw new Error(`Not a model digest: ${digest}`);
    return path.join(this.dir, `${digest}${SUFFIX}`);
  }

  /** Whether a vocabulary is kept for this digest, without reading it. */
  has(digest: string): boolean {
    return DIGEST.test(digest) && fs.existsSync(this.file(digest));
  }

  read(digest: string): Vocabulary | null {
    let raw: Buffer;
    try {
      raw = fs.readFileSync(this.file(digest));
    } catch {
      return null;
    }
    try {
      const s = JSON.parse(gunzipSync(raw).toString('utf8')) as Stored;
      if (s.format !== FORMAT) return null;
      const types = Buffer.from(s.types, 'base64');
      const scores = Buffer.from(s.scores, 'base64');
      return {
        model: s.model,
        pre: s.pre,
        tokens: s.tokens,
        types: new Uint8Array(types.buffer, types.byteOffset, types.byteLength),
        merges: s.merges,
        scores: new Float32Array(scores.buffer.slice(scores.byteOffset, scores.byteOffset + scores.byteLength)),
        bos: s.bos,
        eos: s.eos,
        addBos: s.addBos,
        addSpacePrefix: s.addSpacePrefix,
      };
    } catch {
      // A damaged file is fetched again, not trusted.
      return null;
    }
  }

  write(digest: string, v: Vocabulary): void {
    const stored: Stored = {
      format: FORMAT,
      model: v.model,
      pre: v.pre,
      tokens: v.tokens,
      types: Buffer.from(v.types.buffer, v.types.byteOffset, v.types.byteLength).toString('base64'),
      merges: v.merges,
      scores: Buffer.from(v.scores.buffer, v.scores.byteOffset, v.scores.byteLength).toString('base64'),
      bos: v.bos,
      eos: v.eos,
      addBos: v.addBos,
      addSpacePrefix: v.addSpacePrefix,
    };
    fs.mkdirSync(this.dir, { recursive: true });
    const target = this.file(digest);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, gzipSync(Buffer.from(JSON.stringify(stored), 'utf8'), { level: 6 }));
    fs.renameSync(tmp, target);
  }

  /** Digests with a stored vocabulary. */
  digests(): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith(SUFFIX)).map((n) => n.slice(0, -SUFFIX.length)).filter((d) => DIGEST.test(d));
  }

  /** Deletes the vocabularies of models no longer installed; returns the digests removed. */
  evictExcept(installed: ReadonlySet<string>): string[] {
    const gone = this.digests().filter((d) => !installed.has(d));
    for (const d of gone) fs.rmSync(this.file(d), { force: true });
    return gone;
  }
}
