import type { Db } from '../db/open';
import { collapseWhitespace } from '../text/normalise';
import { chunkTexts } from './lexical-rows';
import type { Passage } from './passages';

/**
 * The first `limit` passages that each bring something not already sent: a passage every chunk of
 * which has the text of a chunk in an earlier passage (another copy of the same page) is left out,
 * and the next one takes its place. Documentation often holds a page twice: a generator's
 * single-page build beside its chapters (mdBook's print.html, Node's all.html), a README copied
 * into docs/, a backup folder. Each copy matches a question equally well, so the copies came in
 * pairs: in Node's HTML docs (65 pages) 58 of the 156 top-6 places of 26 questions were repeats,
 * and every question had one. A copy in another context (a config block repeated across guides,
 * with other text around it) is kept: only the passage's own text is compared.
 */
export function withoutRepeats(db: Db, passages: readonly Passage[], limit: number): Passage[] {
  if (passages.length <= 1) return passages.slice(0, limit);
  const texts = new Map<number, string>();
  const key = (rowid: number) => collapseWhitespace(texts.get(rowid) ?? `\0${rowid}`);
  const sent = new Set<string>();
  const kept: Passage[] = [];
  const wholes: string[] = [];
  // The texts are read for as many passages as are still wanted, again only when some were repeats.
  for (let next = 0; next < passages.length && kept.length < limit; ) {
    const batch = passages.slice(next, next + limit - kept.length);
    next += batch.length;
    for (const [rowid, text] of chunkTexts(db, batch.flatMap((p) => p.rowids))) texts.set(rowid, text);
    for (const p of batch) {
      const keys = p.rowids.map(key);
      // The same text may be cut at other places in another copy (a longer heading path takes a few
      // of a chunk's tokens), so a passage held whole inside one already kept is a repeat too.
      const whole = keys.join(' ');
      if (keys.every((k) => sent.has(k)) || wholes.some((w) => w.includes(whole))) continue;
      for (const k of keys) sent.add(k);
      wholes.push(whole);
      kept.push(p);
    }
  }
  return kept;
}
