import { describe, expect, it } from 'vitest';
import type { SavedQuestion } from '../../../../shared/eval';
import { report } from '../../test/eval-fixtures';
import { CSV_HEADER, csvField, reportToCsv, savedQuestionsToSet } from './eval-export';

/** A strict RFC 4180 reader, to check that what we write reads back to the same fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
      } else {
        field += ch;
        i++;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      if (ch === '"' || ch === '\n' || ch === '\r') throw new Error(`bare ${JSON.stringify(ch)} at ${i}`);
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last line not terminated by CRLF');
  return rows;
}

describe('CSV export', () => {
  it('quotes fields with commas, quotes and line breaks (quotes doubled), and nothing else', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(0.5)).toBe('0.5');
    expect(csvField(null)).toBe('');
  });

  it('writes numbers without floating-point noise (a mean of 148.38 tokens/s is not 148.38000000000002), integers and small rates whole', () => {
    expect(csvField(148.38000000000002)).toBe('148.38');
    expect(csvField(0.1 + 0.2)).toBe('0.3');
    expect(csvField(1363.2)).toBe('1363.2');
    expect(csvField(20000)).toBe('20000');
    expect(csvField(1 / 3)).toBe('0.333333333333');
    expect(csvField(0.000125)).toBe('0.000125');
  });

  it('writes one row per configuration under a flat header, rates as fractions, not-run as empty', () => {
    const rows = parseCsv(reportToCsv(report()));
    expect(rows[0]).toEqual([...CSV_HEADER]);
    expect(rows[0]).toEqual([
      'chat_model', 'embed_model', 'chunker', 'k', 'mode', 'fusion',
      'hit_at_1', 'hit_at_3', 'hit_at_5', 'hit_at_k', 'mrr', 'fact_sent', 'source_tokens_p50', 'answer_has_fact', 'citation_valid', 'supported_citations', 'cites_fact', 'refusal_accuracy', 'false_refusals',
      'prompt_tokens_estimated', 'prompt_tokens_reported', 'prompt_tokens_exact', 'truncations', 'retrieve_p50_ms', 'retrieve_p95_ms', 'generate_p50_ms', 'generate_p95_ms',
      'tokens_per_second', 'changed_across_repeats', 'errors',
    ]);
    expect(rows).toHaveLength(4);
    const col = (name: string) => (rows[0] as string[]).indexOf(name);
    const first = rows[1] as string[];
    expect(first.slice(0, 6)).toEqual(['llama3.2:latest', 'embeddinggemma:latest', 'heading:256', '5', 'hybrid', 'rrf:60']);
    expect(first[col('hit_at_k')]).toBe('0.5');
    expect(first[col('generate_p95_ms')]).toBe('1400');
    expect(first[col('changed_across_repeats')]).toBe('');
    const retrievalOnly = rows[3] as string[];
    expect(retrievalOnly[col('chat_model')]).toBe('');
    expect(retrievalOnly[col('answer_has_fact')]).toBe('');
    expect(retrievalOnly[col('fusion')]).toBe('');
    // A keyword row uses no embedding model (the report's JSON names the index it ran in).
    expect(retrievalOnly[col('embed_model')]).toBe('');
    expect(retrievalOnly[col('hit_at_k')]).toBe('0.75');
    expect(retrievalOnly[col('errors')]).toBe('1');
    for (const r of rows) expect(r).toHaveLength(CSV_HEADER.length);
  });

  it('keeps awkward model names and chunkers intact through a round trip', () => {
    const base = report();
    const r = report({ configs: [{ ...(base.configs[0] as (typeof base.configs)[number]), chatModel: 'my "best", model\nv2', chunker: 'recursive:1000/100' }] });
    const rows = parseCsv(reportToCsv(r));
    expect(rows[1]?.[0]).toBe('my "best", model\nv2');
    expect(rows[1]?.[2]).toBe('recursive:1000/100');
  });
});

describe('CSV formula injection', () => {
  it('makes a text that a spreadsheet would run as a formula plain text; numbers stay numbers', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+cmd')).toBe("'+cmd");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('llama3.2:latest')).toBe('llama3.2:latest');
    expect(csvField(-0.5)).toBe('-0.5');
  });

  it('applies to every text field of a report row', () => {
    const base = report();
    const r = report({ configs: [{ ...(base.configs[0] as (typeof base.configs)[number]), chatModel: '=cmd|calc', chunker: '@x' }] });
    const row = parseCsv(reportToCsv(r))[1] as string[];
    expect(row[0]).toBe("'=cmd|calc");
    expect(row[2]).toBe("'@x");
  });
});

describe('saved questions as a question set', () => {
  it('writes the nested form with only the expectations that are set', () => {
    const saved: SavedQuestion[] = [
      { id: 's1', question: 'How often?', expect: { chunkFact: 'every 90 days', answerable: true }, root: '/notes', createdAt: '2026-03-01T10:00:00Z' },
      { id: 's2', question: 'Wifi?', expect: { answerable: false }, root: null, createdAt: '2026-03-01T10:00:00Z' },
    ];
    expect(JSON.parse(savedQuestionsToSet(saved))).toEqual([
      { id: 's1', question: 'How often?', expect: { chunkFact: 'every 90 days', answerable: true } },
      { id: 's2', question: 'Wifi?', expect: { answerable: false } },
    ]);
  });
});
