/**
 * Vectors for measuring dense search that behave like a real embedding model's, built from real
 * text (never uniform random vectors, whose geometry says nothing about quantization):
 *
 * - set R, real-model-like: an LSA of the corpus. TF-IDF of every chunk, reduced by a randomized
 *   SVD (fitted on a sample) to LATENT dimensions, mapped into the output dimension by a fixed
 *   seeded projection, plus a shared offset direction (real embeddings share one) and small
 *   isotropic noise, unit length.
 * - set H, harder: the same TF-IDF through a random rank-LATENT projection, unit length.
 *
 * Questions are embedded by the same mapping (their TF-IDF with the corpus's IDF).
 */
import { gaussian, normalise, seeded } from '../support/synthetic-index';

export const LATENT = 192;
/** Set R's shared offset and noise, relative to the unit LSA direction (see the geometry printed). */
const OFFSET = 0.75;
const NOISE = 0.55;
const FIT_SAMPLE = 20_000;
const MAX_TERMS = 30_000;

const STOP = new Set(
  'the a an and or of to in on for is are was were be been it its this that with as at by from not no but if then than so can will would should could into out up down over under about you your we our they their he she his her i me my do does did has have had which what when where who how why all any some more most other such only own same very just also there here these those'.split(
    ' ',
  ),
);

export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 2 && !STOP.has(t));
}

/** A sparse TF-IDF row: term indexes and unit-length weights. */
export interface Sparse {
  idx: Int32Array;
  val: Float32Array;
}

export class TfIdf {
  readonly vocab = new Map<string, number>();
  readonly idf: Float32Array;

  constructor(texts: readonly string[]) {
    const df = new Map<string, number>();
    for (const t of texts) for (const w of new Set(terms(t))) df.set(w, (df.get(w) ?? 0) + 1);
    const kept = [...df].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_TERMS);
    this.idf = new Float32Array(kept.length);
    kept.forEach(([w, n], i) => {
      this.vocab.set(w, i);
      this.idf[i] = Math.log(texts.length / n);
    });
  }

  get size(): number {
    return this.idf.length;
  }

  row(text: string): Sparse {
    const tf = new Map<number, number>();
    for (const w of terms(text)) {
      const i = this.vocab.get(w);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    const idx = Int32Array.from(tf.keys());
    const val = Float32Array.from(idx, (i) => (1 + Math.log(tf.get(i)!)) * this.idf[i]!);
    let n = 0;
    for (const v of val) n += v * v;
    const s = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let i = 0; i < val.length; i++) val[i]! *= s;
    return { idx, val };
  }
}

/** Y = S·M for sparse rows S (n × V) and a row-major dense M (V × l): row-major n × l. */
function sparseTimes(rows: readonly Sparse[], m: Float64Array, l: number): Float64Array {
  const out = new Float64Array(rows.length * l);
  rows.forEach((r, i) => {
    const o = i * l;
    for (let k = 0; k < r.idx.length; k++) {
      const base = r.idx[k]! * l;
      const v = r.val[k]!;
      for (let j = 0; j < l; j++) out[o + j]! += v * m[base + j]!;
    }
  });
  return out;
}

/** Z = Sᵀ·Y for sparse rows S (n × V) and row-major Y (n × l): row-major V × l. */
function sparseTransposeTimes(rows: readonly Sparse[], y: Float64Array, l: number, vocab: number): Float64Array {
  const out = new Float64Array(vocab * l);
  rows.forEach((r, i) => {
    const o = i * l;
    for (let k = 0; k < r.idx.length; k++) {
      const base = r.idx[k]! * l;
      const v = r.val[k]!;
      for (let j = 0; j < l; j++) out[base + j]! += v * y[o + j]!;
    }
  });
  return out;
}

/** AᵀA for row-major A (n × l). */
function gram(a: Float64Array, n: number, l: number): Float64Array {
  const g = new Float64Array(l * l);
  for (let i = 0; i < n; i++) {
    const o = i * l;
    for (let p = 0; p < l; p++) {
      const ap = a[o + p]!;
      if (ap === 0) continue;
      for (let q = p; q < l; q++) g[p * l + q]! += ap * a[o + q]!;
    }
  }
  for (let p = 0; p < l; p++) for (let q = 0; q < p; q++) g[p * l + q] = g[q * l + p]!;
  return g;
}

/** Orthonormal columns spanning A's (row-major n × l), in place, by Cholesky QR done twice. */
function orthonormalise(a: Float64Array, n: number, l: number): void {
  for (let pass = 0; pass < 2; pass++) {
    const g = gram(a, n, l);
    // Cholesky of G (+ a tiny ridge for columns that vanished), then A ← A·R⁻¹ row by row.
    const r = new Float64Array(l * l);
    const ridge = 1e-10 * Math.max(...Array.from({ length: l }, (_, i) => g[i * l + i]!));
    for (let j = 0; j < l; j++) {
      let d = g[j * l + j]! + ridge;
      for (let k = 0; k < j; k++) d -= r[k * l + j]! ** 2;
      const rjj = Math.sqrt(Math.max(d, ridge));
      r[j * l + j] = rjj;
      for (let c = j + 1; c < l; c++) {
        let s = g[j * l + c]!;
        for (let k = 0; k < j; k++) s -= r[k * l + j]! * r[k * l + c]!;
        r[j * l + c] = s / rjj;
      }
    }
    const row = new Float64Array(l);
    for (let i = 0; i < n; i++) {
      const o = i * l;
      // Solve x·R = a_i (R upper triangular): forward over columns.
      for (let c = 0; c < l; c++) {
        let s = a[o + c]!;
        for (let k = 0; k < c; k++) s -= row[k]! * r[k * l + c]!;
        row[c] = s / r[c * l + c]!;
      }
      a.set(row, o);
    }
  }
}

/** Eigenvalues and eigenvectors (columns of the row-major result) of a symmetric l × l matrix, by cyclic Jacobi. */
function symmetricEigen(m: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += a[p * l + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * l + q]! - a[p * l + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p]!;
          const akq = a[k * l + q]!;
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k]!;
          const aqk = a[q * l + k]!;
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p]!;
          const vkq = v[k * l + q]!;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Float64Array.from({ length: l }, (_, i) => a[i * l + i]!), vectors: v };
}

/**
 * The top `k` right singular vectors of S (as a row-major V × k matrix scaled so that x·Vk is the
 * LSA coordinates U·Σ) by a randomized SVD: a Gaussian sketch, two power iterations, then the
 * eigen-decomposition of the small l × l matrix B·Bᵀ.
 */
export function lsaBasis(rows: readonly Sparse[], vocab: number, k: number, seed: number): Float64Array {
  const l = k + 16;
  const g = gaussian(seeded(seed));
  const omega = Float64Array.from({ length: vocab * l }, () => g());
  let q = sparseTimes(rows, omega, l);
  orthonormalise(q, rows.length, l);
  for (let it = 0; it < 2; it++) {
    const z = sparseTransposeTimes(rows, q, l, vocab);
    orthonormalise(z, vocab, l);
    q = sparseTimes(rows, z, l);
    orthonormalise(q, rows.length, l);
  }
  const bt = sparseTransposeTimes(rows, q, l, vocab); // Bᵀ = Sᵀ·Q, V × l
  const { values, vectors } = symmetricEigen(gram(bt, vocab, l), l);
  const order = Array.from({ length: l }, (_, i) => i).sort((a, b) => values[b]! - values[a]!).slice(0, k);
  // V_k = Bᵀ·U_k / σ_k: right singular vectors of S.
  const basis = new Float64Array(vocab * k);
  order.forEach((col, j) => {
    const sigma = Math.sqrt(Math.max(values[col]!, 1e-30));
    for (let t = 0; t < vocab; t++) {
      let s = 0;
      for (let c = 0; c < l; c++) s += bt[t * l + c]! * vectors[c * l + col]!;
      basis[t * k + j] = s / sigma;
    }
  });
  return basis;
}

/** Row-major (V × k) basis applied to a sparse row: the row's k coordinates. */
function project(row: Sparse, basis: Float64Array | Float32Array, k: number): Float64Array {
  const out = new Float64Array(k);
  for (let n = 0; n < row.idx.length; n++) {
    const base = row.idx[n]! * k;
    const v = row.val[n]!;
    for (let j = 0; j < k; j++) out[j]! += v * basis[base + j]!;
  }
  return out;
}

function lift(z: Float64Array, p: Float32Array, dim: number): Float32Array {
  const k = z.length;
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    let s = 0;
    const o = i * k;
    for (let j = 0; j < k; j++) s += p[o + j]! * z[j]!;
    out[i] = s;
  }
  return out;
}

export interface VectorSets {
  tfidf: TfIdf;
  /** Set R's vector for a text; `noiseSeed` makes its noise reproducible. */
  r(text: string, noiseSeed: number): Float32Array;
  /** Set H's vector for a text. */
  h(text: string): Float32Array;
}

export function buildVectorSets(texts: readonly string[], dim: number, log: (s: string) => void): VectorSets {
  const t0 = performance.now();
  const tfidf = new TfIdf(texts);
  const random = seeded(17);
  const fit = texts.length <= FIT_SAMPLE ? texts : Array.from({ length: FIT_SAMPLE }, () => texts[Math.floor(random() * texts.length)]!);
  const basis = lsaBasis(
    fit.map((t) => tfidf.row(t)),
    tfidf.size,
    LATENT,
    23,
  );
  log(`vector sets: TF-IDF over ${tfidf.size} terms, LSA to ${LATENT} dims fitted on ${fit.length} chunks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const g = gaussian(seeded(29));
  const liftR = Float32Array.from({ length: dim * LATENT }, () => g() / Math.sqrt(LATENT));
  const offset = normalise(Float32Array.from({ length: dim }, () => g()));
  const randomH = Float32Array.from({ length: tfidf.size * LATENT }, () => g());
  const liftH = Float32Array.from({ length: dim * LATENT }, () => g() / Math.sqrt(LATENT));
  return {
    tfidf,
    r(text, noiseSeed) {
      const s = normalise(lift(project(tfidf.row(text), basis, LATENT), liftR, dim));
      const noise = gaussian(seeded(noiseSeed));
      const scale = NOISE / Math.sqrt(dim);
      for (let i = 0; i < dim; i++) s[i] = s[i]! + OFFSET * offset[i]! + scale * noise();
      return normalise(s);
    },
    h(text) {
      return normalise(lift(project(tfidf.row(text), randomH, LATENT), liftH, dim));
    },
  };
}
