// Deterministic embeddings with real lexical similarity, so retrieval tests can assert on ranking
// without a model: texts that share words land measurably closer than texts that do not.
//
// Features: stemmed word unigrams (stopwords kept but light, so a text of only stopwords still gets
// a vector) plus character 3-grams inside each word (so "configure" ~ "configuration"), feature-
// hashed with a sign bit into `dim` buckets, then L2-normalised like Ollama's /api/embed output.
// The hash is seeded with the model name: two models never produce comparable vectors, which is
// the property Quire's one-vector-table-per-model design relies on.

// Task prefixes the real models are trained with. They are the same on every query (or every
// document), so hashing them would add a shared component and inflate every similarity.
const TASK_PREFIXES: readonly RegExp[] = [
  /^\s*search_(?:query|document)\s*:\s*/i, // nomic-embed-text
  /^\s*(?:classification|clustering)\s*:\s*/i, // nomic-embed-text
  /^\s*task\s*:[^|\n]*\|\s*query\s*:\s*/i, // embeddinggemma queries
];
// embeddinggemma documents: "title: <title or none> | text: <content>". A real title is content,
// so it is kept; only the scaffolding and the placeholder "none" go.
const TITLE_PREFIX = /^\s*title\s*:\s*([^|\n]*)\|\s*text\s*:\s*/i;

export function stripTaskPrefix(text: string): string {
  let t = text;
  for (const re of TASK_PREFIXES) t = t.replace(re, '');
  const m = TITLE_PREFIX.exec(t);
  if (m) {
    const title = (m[1] ?? '').trim();
    t = (title && title.toLowerCase() !== 'none' ? `${title}\n` : '') + t.slice(m[0].length);
  }
  return t;
}

const STOPWORDS = new Set(
  ('a an and are as at be but by can do does for from has have how i if in into is it its of on or ' +
    'that the their there these this to was were what when where which who why will with you your')
    .split(' '),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Lowercased, accent-free words; shared with the extractive chat so both agree on "a word". */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

// A few suffix rules are enough to make "notes"/"note" and "indexing"/"indexed" meet; this is not
// meant to be linguistically right, only consistent between queries and documents.
export function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  const singular = w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
  // "rotate(s)" meets "rotated" and "rotating" (all "rotat"); short words ("make", "time") keep their e.
  return singular.length > 5 && singular.endsWith('e') && !singular.endsWith('ee') ? singular.slice(0, -1) : singular;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// Murmur3's finaliser: decorrelates the sign bit from the bucket index taken from the low bits.
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const WORD_WEIGHT = 1;
const STOPWORD_WEIGHT = 0.15;
const TRIGRAM_WEIGHT = 0.35;

export function features(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (f: string, w: number) => out.set(f, (out.get(f) ?? 0) + w);
  for (const w of words(stripTaskPrefix(text))) {
    if (isStopword(w)) {
      add(`w:${w}`, STOPWORD_WEIGHT);
      continue;
    }
    add(`w:${stem(w)}`, WORD_WEIGHT);
    const padded = `<${w}>`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  return out;
}

export function l2normalize(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const scale = 1 / Math.max(norm, 1e-12); // same floor as Ollama's normalize()
  // 8 significant digits: float32 precision, and JSON bodies stay a sane size.
  return v.map((x) => Number((x * scale).toPrecision(8)));
}

/** The model's embedding of one (already truncated) input. */
export function embedText(text: string, dim: number, seed: string): number[] {
  const v = new Array<number>(dim).fill(0);
  let feats = features(text);
  // Real models still return a vector for empty or symbol-only input (BOS/EOS embed to something).
  if (feats.size === 0) feats = new Map([['\u0000empty', 1]]);
  for (const [f, w] of feats) {
    const h = fnv1a(`${seed}\u0000${f}`);
    const i = h % dim;
    v[i] = (v[i] ?? 0) + (mix(h) & 0x80000000 ? -w : w);
  }
  return l2normalize(v);
}
