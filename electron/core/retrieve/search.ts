import { countEmbeddingInputs, sharedModelTokens, type ModelTokens } from '../tokens/model-tokens';
import { requestWritten } from '../ollama/request-written';
import { QuireError, toErrorShape } from '../../../shared/errors';
import { LIST_DEPTH, type SearchMode, type SearchResponse, type SearchResult } from '../../../shared/search';
import { getActiveEmbeddingModel, type EmbeddingModelRow } from '../db/embedding-models';
import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { Embedder } from '../ollama/embedder';
import { PERSON_WAITING, type OllamaGateway } from '../ollama/gateway';
import { denseSearch, type DenseHit } from './dense';
import { fuseWith, type Fused, type Ranked } from './fusion';
import { lexicalSearch } from './lexical';
import { toPassages, type Passage } from './passages';
import { withoutRepeats } from './repeats';
import { warningFlags } from '../text/injection';
import { SettingsStore } from '../settings';
import { DEFAULT_FUSION, parseFusion, type Fusion } from '../../../shared/fusion';
import type { ScopeFilter, ScopeFolder } from './scope';
import { headingAsRead } from '../text/searchable';

/**
 * The longest keyword search waits for the query's embedding request to be written: a vector
 * already known (cached) sends none, and a busy connection may write late; neither may delay it.
 */
const QUERY_SENT_WAIT_MS = 25;

export interface SearchOptions {
  k?: number;
  /**
   * Omitted: the searchMode setting (hybrid unless changed). Either way a mode that needs vectors
   * falls back to keyword search when they cannot be used, and says why.
   */
  mode?: SearchMode;
  /** Only these folders (whole); with `folders`, all when both are absent or empty. */
  collectionIds?: readonly string[];
  /** Only these folders inside imported folders (path '' for a whole one). */
  folders?: readonly ScopeFolder[];
  /** How hybrid joins the two rankings; omitted: the saved setting, else the default (shared/fusion.ts DEFAULT_FUSION). */
  fusion?: Fusion;
  /** How to embed the query; null when Ollama is not to be asked. */
  gateway: OllamaGateway | null;
  /** The models' own tokenizers (a question too long for the embedding model is refused before it is sent). */
  tokens?: ModelTokens;
  signal?: AbortSignal;
}

export async function search(db: Db, query: string, options: SearchOptions): Promise<SearchResponse> {
  const started = performance.now();
  const k = options.k ?? 8;
  if (!Number.isInteger(k) || k < 1 || k > 1000) throw new QuireError('INVALID_ARGUMENT', 'k must be a whole number from 1 to 1000.');
  const depth = Math.max(LIST_DEPTH, k);
  const filter: ScopeFilter = {
    ...(options.collectionIds ? { collectionIds: options.collectionIds } : {}),
    ...(options.folders ? { folders: options.folders } : {}),
  };
  const requested = options.mode;
  const chosen = requested ?? configuredSearchMode(db);

  let mode: SearchMode = chosen;
  let fallback: SearchResponse['fallback'];
  let dense: DenseHit[] = [];
  let model: EmbeddingModelRow | null = null;

  let lexical: Ranked[] | null = null;
  if (mode !== 'lexical') {
    try {
      model = requireVectors(db);
      // The query's embedding is asked for first and keyword search runs while Ollama computes it
      // (tens of milliseconds for a real model on a CPU), so the two overlap instead of adding up.
      // Keyword search is synchronous: it waits until the request is written (at most a moment).
      const written = mode === 'hybrid' ? requestWritten('/api/embed', QUERY_SENT_WAIT_MS) : null;
      const asked = embedQuery(options.gateway, model, query, options.signal, options.tokens).then(
        (vector) => ({ vector }),
        (error: unknown) => ({ error }),
      );
      if (mode === 'hybrid') {
        await written;
        lexical = lexicalSearch(db, query, depth, filter);
      }
      const embedded = await asked;
      if ('error' in embedded) throw embedded.error;
      dense = denseSearch(db, model, embedded.vector, depth, { filter, quantizeAbove: new SettingsStore(db).get('denseQuantizeAbove') });
    } catch (e) {
      const shape = toErrorShape(e);
      if (shape.code === 'CANCELLED') throw e;
      // Keyword search still answers; the response says why vectors were not used. The default,
      // hybrid, over an index without vectors is simply keyword search; a mode asked for by the
      // call, or chosen in Settings, is told why it was not honoured.
      if (requested !== undefined || chosen !== 'hybrid' || shape.code !== 'NO_EMBEDDINGS') fallback = { requested: mode, reason: shape.message, code: shape.code };
      mode = 'lexical';
      model = null;
    }
  }
  if (mode === 'dense') lexical = [];
  lexical ??= lexicalSearch(db, query, depth, filter);
  const fused = fuseWith(options.fusion ?? configuredFusion(db), lexical, dense);
  const byRow = new Map(fused.map((f) => [f.rowid, f]));
  // Every hit's passage (its windows are looked up for all of them anyway), then the first k that are no copy of one before.
  const passages = withoutRepeats(db, toPassages(db, fused.map((f) => f.rowid), fused.length), k);
  const distances = new Map(dense.map((d) => [d.rowid, d.distance]));
  return {
    mode,
    ...(fallback ? { fallback } : {}),
    embedModel: model?.name ?? null,
    embedDigest: model?.digest ?? null,
    results: hydrate(db, passages, byRow, distances),
    ms: Math.round((performance.now() - started) * 10) / 10,
  };
}

function requireVectors(db: Db): EmbeddingModelRow {
  const model = getActiveEmbeddingModel(db);
  const has = model && db.prepare('SELECT 1 FROM document_embeddings WHERE model_id = ? LIMIT 1').get(model.id);
  if (!model || !has) {
    throw new QuireError('NO_EMBEDDINGS', 'No document has vectors yet, so only keyword search is possible. Run "quire embed" with Ollama running.');
  }
  return model;
}

async function embedQuery(gateway: OllamaGateway | null, model: EmbeddingModelRow, query: string, signal?: AbortSignal, tokens?: ModelTokens): Promise<Float32Array> {
  if (!gateway) throw new QuireError('OLLAMA_UNREACHABLE', 'Ollama was not asked (offline mode), so only keyword search was used.');
  // A person is waiting: one quick retry, then keyword search rather than a long backoff.
  const quick = gateway.withOptions(PERSON_WAITING);
  const embedder = await Embedder.resolve(quick, model.name, signal ? { signal } : {});
  if (embedder.digest !== model.digest) {
    throw new QuireError(
      'EMBED_DIMENSION_MISMATCH',
      `${model.name} in Ollama is not the version the documents were embedded with (digest ${embedder.digest.slice(0, 12)} vs ${model.digest.slice(0, 12)}). Run "quire embed" to re-embed.`,
    );
  }
  await countEmbeddingInputs(tokens ?? sharedModelTokens(gateway), embedder, signal);
  return embedder.embedQuery(query, signal);
}

/** The search mode the app saved, for calls that name none (the store falls back to hybrid for a bad stored value). */
export function configuredSearchMode(db: Db): SearchMode {
  return new SettingsStore(db).get('searchMode');
}

/** The fusion setting the app saved (the store falls back to the default for a bad stored value). */
export function configuredFusion(db: Db): Fusion {
  return parseFusion(new SettingsStore(db).get('fusion')) ?? DEFAULT_FUSION;
}

/** Every passage's chunks with their document and folder: one statement for all (exported for the query-plan test). */
export const PASSAGE_CHUNKS = `SELECT c.rowid AS rowid, c.id, c.document_id, c.heading_path, c.text, c.start_line, c.end_line, c.page_start, c.page_end, c.flags, d.rel_path, col.root
       FROM json_each(@rowids) j
       JOIN chunks c ON c.rowid = j.value
       JOIN documents d ON d.id = c.document_id
       JOIN collections col ON col.id = d.collection_id`;

function hydrate(db: Db, passages: Passage[], fused: Map<number, Fused>, distances: Map<number, number>): SearchResult[] {
  const wanted = passages.flatMap((p) => p.rowids);
  const byRowid = new Map(
    wanted.length === 0 ? [] : (stmt(db, PASSAGE_CHUNKS).all({ rowids: JSON.stringify(wanted) }) as Array<HydrateRow & { rowid: number }>).map((r) => [r.rowid, r]),
  );
  return passages.flatMap((p) => {
    const f = fused.get(p.rowid);
    const rows = p.rowids.map((rowid) => byRowid.get(rowid));
    const hit = rows[p.rowids.indexOf(p.rowid)];
    if (!f || !hit || rows.some((r) => r === undefined)) return [];
    const all = rows as HydrateRow[];
    const at = p.rowids.indexOf(p.rowid);
    let offset = 0;
    const chunkSpans = all.map((r) => {
      const span = { start: offset, end: offset + r.text.length, lines: [r.start_line, r.end_line] as [number, number], pages: pagesOf(r, r) };
      offset = span.end + 1;
      return span;
    });
    const start = chunkSpans[at]!.start;
    return [
      {
        chunkId: hit.id,
        documentId: hit.document_id,
        path: hit.rel_path,
        root: hit.root,
        heading: headingAsRead(hit.heading_path),
        lines: [all[0]!.start_line, all[all.length - 1]!.end_line] as [number, number],
        pages: pagesOf(all[0]!, all[all.length - 1]!),
        text: all.map((r) => r.text).join('\n'),
        chunkIds: all.map((r) => r.id),
        hit: { lines: [hit.start_line, hit.end_line] as [number, number], pages: pagesOf(hit, hit), start, end: start + hit.text.length },
        chunkSpans,
        score: f.score,
        lexicalRank: f.lexicalRank,
        denseRank: f.denseRank,
        distance: distances.get(p.rowid) ?? null,
        flags: [...new Set(all.flatMap((r) => warningFlags(JSON.parse(r.flags) as string[])))],
      },
    ];
  });
}

/** From the first chunk's first page to the last one's last: null unless the document has pages. */
function pagesOf(first: HydrateRow, last: HydrateRow): [number, number] | null {
  return first.page_start !== null && last.page_end !== null ? [first.page_start, last.page_end] : null;
}

interface HydrateRow {
  id: string;
  document_id: string;
  heading_path: string;
  text: string;
  start_line: number;
  end_line: number;
  page_start: number | null;
  page_end: number | null;
  flags: string;
  rel_path: string;
  root: string;
}
