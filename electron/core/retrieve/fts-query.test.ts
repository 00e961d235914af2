import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { queryTerms, toMatchExpression } from './fts-query';
import { codeLiterals } from './lexical';

describe('toMatchExpression', () => {
  it('quotes terms, drops stopwords, ORs them', () => {
    expect(toMatchExpression('how do I rotate the keys')).toBe('"rotate" OR "keys"');
  });

  it('drops question words and the pieces contractions leave, straight or curly apostrophes', () => {
    expect(queryTerms("What's the point of Rust's borrow checker? I don't get it")).toEqual(['point', 'rust', 'borrow', 'checker']);
    expect(queryTerms('Why won’t my code compile, and why can’t I see it?')).toEqual(['code', 'compile', 'see']);
    // Possessive and plural forms are words, not fragments: they stay.
    expect(queryTerms("the users' keys")).toEqual(['users', 'keys']);
    // Nothing but stopwords: they are all the question has.
    expect(queryTerms("what's that")).toEqual(['what', 'that']);
  });

  it('keeps single letters and short words that mean something', () => {
    expect(queryTerms('vitamin D dose')).toEqual(['vitamin', 'd', 'dose']);
    expect(queryTerms('find the process id')).toEqual(['find', 'process', 'id']);
  });

  it('keeps a quoted phrase as the index holds it, contraction and all', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO t VALUES (?)').run("Don't panic about Rust's ownership rules.");
    for (const q of ['"don\'t panic"', '"Rust\'s ownership"', '"Rust’s ownership"']) {
      expect(db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck().get(toMatchExpression(q)), q).toBe(1);
    }
    db.close();
  });

  it('keeps identifiers whole and numbers as words', () => {
    expect(queryTerms('does unwrap_or_else take a closure? u8 over 255')).toEqual(['unwrap_or_else', 'take', 'closure', 'u8', 'over', '255']);
  });

  it('keeps stopwords when nothing else is left', () => {
    expect(toMatchExpression('to be or not to be')).toBe('"to" OR "be" OR "or" OR "not"');
  });

  it('keeps double-quoted text as a phrase', () => {
    expect(toMatchExpression('"rotate the keys" weekly')).toBe('"rotate the keys" OR "weekly"');
  });

  it('returns null when nothing searchable is left', () => {
    for (const q of ['', '   ', '?!', '"', '***', '-- ;', '()', '🙂']) expect(toMatchExpression(q)).toBeNull();
  });

  // Every one of these would be a syntax error or change meaning if passed to MATCH raw.
  const NASTY = [
    'rust AND NOT python',
    'NEAR(ownership borrow, 3)',
    'own*',
    '-negated term',
    'heading_path: secrets',
    'text:foo',
    '"unbalanced quote',
    'a "b" "c d',
    '^start',
    'col1 : col2',
    "it's O'Reilly's",
    '{curly} [square] (round)',
    'C++ && || !',
    'SELECT * FROM chunks; DROP TABLE chunks; --',
    'Ünïcödé naïve café',
    '東京の天気',
    'emoji 🙂 in text',
    'x'.repeat(5000),
    'OR OR OR',
    'AND',
    'NOT',
    '"" "" ""',
    '\u0000 nul',
    'zero\u200bwidth',
  ];

  it.each(NASTY)('never breaks FTS5: %s', (q) => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(heading_path, text, tokenize = 'porter unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO t VALUES (?, ?)').run('Rust > Ownership', 'rust ownership borrow python cafe 東京の天気 AND NOT');
    const expr = toMatchExpression(q);
    if (expr !== null) expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(expr)).not.toThrow();
    db.close();
  });

  it('treats FTS5 keywords as words, not operators', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(text)');
    db.prepare('INSERT INTO t VALUES (?)').run('python only');
    // Raw "rust AND NOT python" would exclude this row; quoted terms OR-ed find it by "python".
    expect(db.prepare('SELECT count(*) n FROM t WHERE t MATCH ?').get(toMatchExpression('rust AND NOT python'))).toEqual({ n: 1 });
    db.close();
  });

  it('matches diacritics-insensitively through the tokenizer', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO t VALUES (?)').run('the cafe menu');
    expect(db.prepare('SELECT count(*) n FROM t WHERE t MATCH ?').get(toMatchExpression('café'))).toEqual({ n: 1 });
    db.close();
  });
});

describe('codeLiterals', () => {
  it('takes backticked spans whole and bare tokens only code has', () => {
    expect(codeLiterals('How does the `?` operator turn an io::Error into my own error type?')).toEqual(['?', 'io::Error']);
    expect(codeLiterals('Is a Box<dyn Trait> slower, and why two &mut at once?')).toEqual(['Box<dyn', 'Trait>', '&mut']);
    expect(codeLiterals('what does #[derive(Debug)] do -> anything? and Rc::clone(&a)')).toEqual(['#[derive(Debug)]', 'Rc::clone(&a)']);
  });

  it('finds nothing in plain prose, punctuation or empty backticks', () => {
    expect(codeLiterals("What's the difference between Send and Sync?")).toEqual([]);
    expect(codeLiterals('a < b & c -> d :: e')).toEqual([]);
    expect(codeLiterals('``')).toEqual([]);
  });
});
