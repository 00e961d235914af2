import { configCount, indexCount, type EvalGrid } from '../../../../shared/eval';
import { DEFAULT_FUSION, formatFusion, FUSION_USAGE, parseFusion } from '../../../../shared/fusion';
import { SEARCH_MODE_LABELS, SEARCH_MODES, type SearchMode } from '../../../../shared/search';
import { BOUNDS } from '../../../../shared/settings';

/** The Evaluate form as the person fills it in, checked and turned into the grid the engine runs. */

export const CHUNKER_PRESETS: ReadonlyArray<{ spec: string; label: string }> = [
  { spec: 'heading:256', label: 'By heading, up to 256 tokens' },
  { spec: 'recursive:1000/100', label: 'Recursive, 1000 characters, 100 overlap' },
  { spec: 'fixed:128/25', label: 'Fixed windows of 128 tokens, 25 overlap' },
];

/** As Settings names them (shared/search.ts), so the mode a report says won is found there by name. */
export const MODE_LABELS: Readonly<Record<SearchMode, string>> = SEARCH_MODE_LABELS;

// k's bound is the contract's (shared/settings.ts BOUNDS.k), so the form never passes what the engine refuses.
export const LIMITS = { chatModels: 8, embedModels: 6, chunkers: 6, ks: 6, k: BOUNDS.k.max, fusions: 4, repeats: 20 } as const;

export interface GridDraft {
  /** Checked only when "retrieval only" is off. */
  chatModels: string[];
  retrievalOnly: boolean;
  embedModels: string[];
  chunkers: string[];
  /** Extra chunker specs typed by hand, comma-separated. */
  customChunkers: string;
  ks: string;
  modes: SearchMode[];
  /** Fusion specs for hybrid, comma-separated: rrf:60, weighted:0.3. */
  fusions: string;
  repeats: string;
}

/** Whole numbers from "3, 5 8"; null with the reason when something is not one. */
export function parseKs(text: string): { ks: number[]; problem: string | null } {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return { ks: [], problem: 'Give at least one value of k, for example "3, 5".' };
  const ks: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return { ks: [], problem: `"${p}" is not a whole number; write the values of k like "3, 5".` };
    const n = Number(p);
    if (n < 1 || n > LIMITS.k) return { ks: [], problem: `k must be from 1 to ${LIMITS.k}; ${n} is outside that.` };
    if (!ks.includes(n)) ks.push(n);
  }
  return { ks, problem: null };
}

/**
 * Why a chunker spec would be refused, or null when it is fine. Mirrors the engine's rules:
 * heading:<maxTokens 16–100000>, fixed:<window 8–100000>/<overlap>, recursive:<chars 50–10000000>/<overlap>,
 * with the overlap smaller than the size.
 */
export function chunkerProblem(spec: string): string | null {
  const m = /^(heading|fixed|recursive)(?::(\d+)(?:\/(\d+))?)?$/.exec(spec.trim());
  const usage = 'write heading:256, fixed:128/25 or recursive:1000/100';
  if (!m) return `"${spec}" is not a chunker Quire knows; ${usage}.`;
  const [, kind, sizeText, overlapText] = m;
  if (sizeText === undefined) return kind === 'heading' ? null : `"${spec}" needs a size; ${usage}.`;
  const size = Number(sizeText);
  const limits = kind === 'heading' ? [16, 100_000] : kind === 'fixed' ? [8, 100_000] : [50, 10_000_000];
  if (size < (limits[0] as number) || size > (limits[1] as number)) return `In "${spec}" the size must be from ${limits[0]} to ${limits[1]}.`;
  if (kind === 'heading' && overlapText !== undefined) return `"${spec}": the heading chunker takes no overlap.`;
  if (overlapText !== undefined && Number(overlapText) >= size) return `In "${spec}" the overlap must be smaller than the size.`;
  return null;
}

/** The canonical spec ("heading" → "heading:256", "fixed:128" → "fixed:128/0"), so duplicates are found. */
export function canonicalChunker(spec: string): string {
  const s = spec.trim();
  if (s === 'heading') return 'heading:256';
  if (/^(fixed|recursive):\d+$/.test(s)) return `${s}/0`;
  return s;
}

export interface GridCheck {
  grid: EvalGrid | null;
  problems: string[];
  /** Configurations the grid means (a retrieval-only run counts as one chat "model"; keyword search runs once, not per embedding model). */
  configs: number;
  /** Indexes to build: one per embedding model × chunker (none for a model only keyword search would use). */
  indexes: number;
}

/** Checks the form; `grid` is set only when there is no problem. */
export function checkGrid(d: GridDraft): GridCheck {
  const problems: string[] = [];
  const chatModels = d.retrievalOnly ? [] : d.chatModels;
  if (!d.retrievalOnly && chatModels.length === 0) problems.push('Choose at least one chat model, or choose "Retrieval only".');
  if (chatModels.length > LIMITS.chatModels) problems.push(`Choose at most ${LIMITS.chatModels} chat models.`);
  if (d.embedModels.length === 0) problems.push('Choose at least one embedding model.');
  if (d.embedModels.length > LIMITS.embedModels) problems.push(`Choose at most ${LIMITS.embedModels} embedding models.`);

  const custom = d.customChunkers.split(',').map((s) => s.trim()).filter(Boolean);
  const chunkers: string[] = [];
  for (const spec of [...d.chunkers, ...custom]) {
    const problem = chunkerProblem(spec);
    if (problem) problems.push(problem);
    else if (!chunkers.includes(canonicalChunker(spec))) chunkers.push(canonicalChunker(spec));
  }
  if (chunkers.length === 0 && custom.length === 0) problems.push('Choose at least one chunker.');
  if (chunkers.length > LIMITS.chunkers) problems.push(`Choose at most ${LIMITS.chunkers} chunkers.`);

  const { ks, problem: kProblem } = parseKs(d.ks);
  if (kProblem) problems.push(kProblem);
  if (ks.length > LIMITS.ks) problems.push(`Give at most ${LIMITS.ks} values of k.`);

  const modes = SEARCH_MODES.filter((m) => d.modes.includes(m));
  if (modes.length === 0) problems.push('Choose at least one search mode.');

  const fusions: string[] = [];
  for (const spec of d.fusions.split(',').map((s) => s.trim()).filter(Boolean)) {
    const fusion = parseFusion(spec);
    if (!fusion) problems.push(`"${spec}" is not a fusion Quire knows; ${FUSION_USAGE}.`);
    else if (!fusions.includes(formatFusion(fusion))) fusions.push(formatFusion(fusion));
  }
  if (fusions.length === 0 && d.fusions.trim() === '') fusions.push(formatFusion(DEFAULT_FUSION));
  if (fusions.length > LIMITS.fusions) problems.push(`Give at most ${LIMITS.fusions} fusions.`);

  const repeatsText = d.repeats.trim();
  const repeats = Number(repeatsText);
  if (!/^\d+$/.test(repeatsText) || repeats < 1 || repeats > LIMITS.repeats) problems.push(`Repeats must be a whole number from 1 to ${LIMITS.repeats}.`);

  const shape = { chatModels, embedModels: d.embedModels, chunkers, ks, modes, fusions };
  const configs = configCount(shape);
  const indexes = indexCount(shape);
  const grid = problems.length === 0 ? { chatModels, embedModels: d.embedModels, chunkers, ks, modes, fusions, repeats } : null;
  return { grid, problems, configs, indexes };
}

/** Ollama's own reading of a model name: case-insensitive, ":latest" when no tag is given. */
export function canonicalModel(name: string): string {
  const n = name.trim().toLowerCase();
  return n.slice(n.lastIndexOf('/') + 1).includes(':') ? n : `${n}:latest`;
}

/** The installed model `name` refers to ("llama3.2" → "llama3.2:latest"), else `name` itself. */
export function resolveModel(name: string, installed: readonly string[]): string {
  const c = canonicalModel(name);
  return installed.find((m) => canonicalModel(m) === c) ?? name;
}

/** Names that look like embedding models; such models cannot chat. */
export function looksLikeEmbedding(name: string): boolean {
  return /embed|minilm|bge-|\bbge\b|e5-|gte-|\bgte\b|arctic-embed|paraphrase/i.test(name);
}
