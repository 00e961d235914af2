import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { collapseWhitespace } from '../text/normalise';
import { LOOKUP_SQL } from './lexical-rows';
import type { Passage } from './passages';

/**
 * The first `limit` passages that each bring something not already sent: a passage every chunk of
 * which has the text of a chunk in an earlier passage of another document (another copy of the
 * same page) is left out, and the next one takes its place. Documentation often holds a page twice:
 * a generator's single-page build beside its chapters (mdBook's print.html, Node's all.html), a
 * README copied into docs/, a backup folder. Each copy matches a question equally well, so the
 * copies came in pairs: in Node's HTML docs (65 pages) 58 of the 156 top-6 places of 26 questions
 * were repeats, and every question had one. A copy in another context (a config block repeated
 * across guides, with other text around it) is kept: only the passage's own text is compared.
 *
 * Two kinds of equal text are no copy, and are kept:
 * - Text repeated within one document (the same "Returns a Promise..." under each function of an
 *   API page): its heading is its context, and toPassages already sends no chunk twice.
 * - A passage shorter than MIN_REPEAT_CHARS: "See below." or "None." is held in many unrelated
 *   passages, and such a passage brings its heading path, which the longer one does not.
 */
export function withoutRepeats(db: Db, passages: readonly Passage[], limit: number): Passage[] {
  if (passages.length <= 1) return passages.slice(0, limit);
  const chunks = new Map<number, { document: string; text: string }>();
  // Where each chunk text was sent: the documents whose kept passages hold it.
  const sent = new Map<string, Set<string>>();
  const held = new HeldTexts();
  const kept: Passage[] = [];
  // The texts are read for as many passages as are still wanted, again only when some were repeats.
  for (let next = 0; next < passages.length && kept.length < limit; ) {
    const batch = passages.slice(next, next + limit - kept.length);
    next += batch.length;
    const rows = stmt(db, LOOKUP_SQL.texts).all(JSON.stringify(batch.flatMap((p) => p.rowids))) as Array<{ rowid: number; document_id: string; text: string }>;
    for (const r of rows) chunks.set(r.rowid, { document: r.document_id, text: collapseWhitespace(r.text) });
    for (const p of batch) {
      const document = chunks.get(p.rowid)?.document;
      const keys = p.rowids.map((r) => chunks.get(r)?.text ?? `\0${r}`);
      // The same text may be cut at other places in another copy (a longer heading path takes a few
      // of a chunk's tokens), so a passage held whole inside one already kept is a repeat too.
      const whole = keys.join(' ');
      const elsewhere = (k: string) => [...(sent.get(k) ?? [])].some((d) => d !== document);
      if (document !== undefined && whole.length >= MIN_REPEAT_CHARS && (keys.every(elsewhere) || held.holds(whole, document))) continue;
      for (const k of keys) sent.set(k, (sent.get(k) ?? new Set<string>()).add(document ?? ''));
      held.add(whole, document ?? '');
      kept.push(p);
    }
  }
  return kept;
}

/**
 * The shortest passage text (whitespace collapsed) that is left out as a copy: a line of prose, so
 * a one-line chunk ("See below.", a lone command) held in a longer passage is kept.
 */
export const MIN_REPEAT_CHARS = 80;

/**
 * The kept passages' texts, found by word: a passage is looked for only in the kept texts holding
 * its least common inner word (its first and last may be cut mid-word in a copy), not in all of
 * them. At k = 1000, passages of 150 to 600 words, none a copy (every one looked for): 98 ms, where
 * a substring scan of every kept text took 455 ms; with passages all of one length the scan's
 * skips are longer and it took 75 ms to this 137 (npx tsx test/bench/perf-repeats.ts, shared cores).
 */
class HeldTexts {
  private readonly texts: Array<{ text: string; document: string }> = [];
  private readonly byWord = new Map<string, number[]>();

  add(text: string, document: string): void {
    const at = this.texts.push({ text, document }) - 1;
    for (const w of new Set(text.split(' '))) {
      const list = this.byWord.get(w);
      if (list) list.push(at);
      else this.byWord.set(w, [at]);
    }
  }

  /** Whether a kept text of another document holds `text` whole. */
  holds(text: string, document: string): boolean {
    const words = text.split(' ');
    const inner = words.length > 2 ? words.slice(1, -1) : words;
    let fewest: number[] | undefined;
    for (const w of inner) {
      const list = this.byWord.get(w);
      if (!list) return false;
      if (!fewest || list.length < fewest.length) fewest = list;
    }
    return (fewest ?? []).some((i) => this.texts[i]!.document !== document && this.texts[i]!.text.includes(text));
  }
}
