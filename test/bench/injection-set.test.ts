/**
 * Every real injection phrasing of injection-set.json must be flagged, and an instruction hidden in
 * an HTML comment must either not reach the index (Markdown and HTML: the readers drop comments) or
 * reach it flagged (plain text keeps the comment's words). The false-positive side is the corpus bench:
 * npm run bench:flags.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKER } from '../../electron/core/ingest/chunkers/index';
import { parseFile } from '../../electron/core/ingest/parse/parse-file';
import { detectInjection, type InjectionFlag } from '../../electron/core/text/injection';

interface Case { kind: string; text: string; flag: InjectionFlag }
const SET = (JSON.parse(fs.readFileSync(new URL('./injection-set.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;

describe('injection set', () => {
  it('has at least 25 phrasings, in Spanish, French, German, Portuguese and Chinese among them', () => {
    expect(SET.length).toBeGreaterThanOrEqual(25);
    for (const kind of ['direct', 'polite', 'html-comment', 'split', 'invisible', 'es', 'fr', 'de', 'pt', 'zh']) {
      expect(SET.some((c) => c.kind === kind), kind).toBe(true);
    }
  });

  it.each(SET.map((c) => [c.kind, c.text, c.flag] as const))('%s: %j is flagged %s', (_kind, text, flag) => {
    expect(detectInjection(text)).toContain(flag);
  });
});

describe('an instruction hidden in an HTML comment', () => {
  const hidden = SET.filter((c) => c.kind === 'html-comment');
  const parse = (relPath: string, text: string) =>
    parseFile({ relPath, bytes: new TextEncoder().encode(`# Notes\n\nThe quarterly numbers are final.\n\n${text}\n`), chunker: DEFAULT_CHUNKER });

  it.each(hidden.map((c) => [c.text]))('never reaches the index from Markdown: %j', async (text) => {
    const { chunks } = await parse('notes.md', text);
    const all = chunks.map((c) => c.text).join('\n');
    expect(all).toContain('quarterly numbers');
    expect(all).not.toMatch(/<!--|AI/);
    expect(chunks.flatMap((c) => c.flags)).toEqual([]);
  });

  it.each(hidden.map((c) => [c.text]))('never reaches the index from HTML either: %j', async (text) => {
    const html = `<html><body><h1>Notes</h1><p>The quarterly numbers are final.</p>${text}</body></html>`;
    const { chunks } = await parseFile({ relPath: 'notes.html', bytes: new TextEncoder().encode(html), chunker: DEFAULT_CHUNKER });
    const all = chunks.map((c) => c.text).join('\n');
    expect(all).toContain('quarterly numbers');
    expect(all).not.toMatch(/<!--|AI/);
  });

  it.each(hidden.map((c) => [c.text]))('reaches it flagged from plain text: %j', async (text) => {
    const { chunks } = await parse('notes.txt', text);
    const withComment = chunks.filter((c) => c.text.includes('<!--'));
    expect(withComment.length).toBeGreaterThan(0);
    for (const c of withComment) expect(c.flags).toContain('instructions');
  });
});
