/**
 * Citation checking, deterministic and without a model call. The model was told to put `[chunk-id]`
 * after each claim, or to answer exactly REFUSAL. We parse which sentence each id cites for
 * (rules in sentences.ts), then check every cited sentence against the union of the chunks it cites:
 *  - hard facts (numbers, identifiers, double-quoted strings) must each occur in that text; one
 *    missing caps the check at 'weak', more than half missing makes it 'unsupported';
 *  - the share of the sentence's content words found there decides between supported / weak /
 *    unsupported (thresholds below).
 * Ids that were not among the sources sent are 'unknown-source' and never count as evidence.
 */
import { removeMarkers, findMarkers } from './citation-markers';
import { attributeSentences } from './sentences';
import { buildEvidence, contentOverlap, extractFacts, factPresent, mergeEvidence, type Evidence } from './text-features';

export const REFUSAL = 'Not in the documents.';

/** Content-word overlap at or above which a sentence with all its facts present is 'supported'. */
export const SUPPORTED_OVERLAP = 0.6;
/** Overlap at or above which a sentence is at least 'weak'; below it, 'unsupported'. */
export const WEAK_OVERLAP = 0.3;
/** More than this share of hard facts missing from the cited text makes the citation 'unsupported'. */
export const MAX_MISSING_FACT_SHARE = 0.5;

export interface SourceForCheck {
  chunkId: string;
  text: string;
  headingPath: string;
}

export type CitationCheck = 'supported' | 'weak' | 'unsupported' | 'unknown-source';

export interface CheckedCitation {
  chunkId: string;
  sentence: string;
  sentenceIndex: number;
  check: CitationCheck;
  /** Numbers, identifiers and quotes of the sentence (as written there) absent from the cited chunks. */
  missing: string[];
  /** 0..1: share of the sentence's content words found in the cited chunks. */
  overlap: number;
}

export interface CitationReport {
  citations: CheckedCitation[];
  flags: Array<'uncited' | 'unknown-source' | 'unsupported-citation'>;
  sentences: Array<{ text: string; cited: string[] }>;
}

// Quotes a model may wrap the refusal in; besides these and whitespace nothing else is tolerated.
const WRAPPING_QUOTES = '"\'`\u2018\u2019\u201C\u201D';
const isWrapping = (ch: string) => WRAPPING_QUOTES.includes(ch) || /\s/.test(ch);

/** True only for the exact refusal sentence, optionally wrapped in quotes/whitespace. */
export function isRefusal(answer: string): boolean {
  // A scan rather than /^[…]+|[…]+$/, which is quadratic on long runs of spaces inside a long answer.
  let start = 0;
  let end = answer.length;
  while (start < end && isWrapping(answer[start] ?? '')) start++;
  while (end > start && isWrapping(answer[end - 1] ?? '')) end--;
  return answer.slice(start, end) === REFUSAL;
}

/**
 * Every sentence of the answer, in order, with the ids that cite for it (possibly none). Ids are as
 * written by the model (a `chunk:`/`source:` prefix removed), unique per sentence.
 */
export function parseCitations(answer: string): Array<{ sentence: string; sentenceIndex: number; ids: string[] }> {
  return attributeSentences(answer).map((s, i) => ({ sentence: s.text, sentenceIndex: i, ids: s.ids }));
}

/** The answer without its citation markers, for display and comparison. */
export function stripCitations(answer: string): string {
  const text = answer.replace(/\r\n?/g, '\n');
  return removeMarkers(text, findMarkers(text));
}

interface Verdict {
  check: Exclude<CitationCheck, 'unknown-source'>;
  missing: string[];
  overlap: number;
}

function judge(sentence: string, evidence: Evidence): Verdict {
  const facts = extractFacts(sentence);
  const missing = facts.filter((f) => !factPresent(f, evidence)).map((f) => f.surface);
  const overlap = contentOverlap(sentence, evidence);
  let check: Verdict['check'] = overlap >= SUPPORTED_OVERLAP ? 'supported' : overlap >= WEAK_OVERLAP ? 'weak' : 'unsupported';
  if (missing.length > 0 && check === 'supported') check = 'weak';
  if (facts.length > 0 && missing.length / facts.length > MAX_MISSING_FACT_SHARE) check = 'unsupported';
  return { check, missing, overlap };
}

export function checkCitations(answer: string, sources: readonly SourceForCheck[]): CitationReport {
  const byId = new Map<string, SourceForCheck>();
  // Exact ids first; a model that upper-cases the hex still means the same chunk.
  for (const s of sources) byId.set(s.chunkId.toLowerCase(), s);
  for (const s of sources) byId.set(s.chunkId, s);
  const resolve = (id: string) => byId.get(id) ?? byId.get(id.toLowerCase());

  const evidenceCache = new Map<string, Evidence>();
  const evidenceOf = (s: SourceForCheck) => {
    let e = evidenceCache.get(s.chunkId);
    if (!e) evidenceCache.set(s.chunkId, (e = buildEvidence([s.headingPath, s.text])));
    return e;
  };

  const citations: CheckedCitation[] = [];
  const sentences: CitationReport['sentences'] = [];
  for (const { sentence, sentenceIndex, ids } of parseCitations(answer)) {
    const cited = [...new Set(ids.map((id) => resolve(id)?.chunkId ?? id))];
    sentences.push({ text: sentence, cited });
    const known = [...new Set(ids.map(resolve).filter((s): s is SourceForCheck => s !== undefined))];
    const verdict = known.length > 0 ? judge(sentence, mergeEvidence(known.map(evidenceOf))) : null;
    for (const chunkId of cited) {
      const isKnown = known.some((s) => s.chunkId === chunkId);
      citations.push(
        isKnown && verdict
          ? { chunkId, sentence, sentenceIndex, check: verdict.check, missing: [...verdict.missing], overlap: verdict.overlap }
          : { chunkId, sentence, sentenceIndex, check: 'unknown-source', missing: [], overlap: 0 },
      );
    }
  }

  const flags: CitationReport['flags'] = [];
  if (!isRefusal(answer) && !citations.some((c) => c.check !== 'unknown-source')) flags.push('uncited');
  if (citations.some((c) => c.check === 'unknown-source')) flags.push('unknown-source');
  if (citations.some((c) => c.check === 'unsupported')) flags.push('unsupported-citation');
  return { citations, flags, sentences };
}
