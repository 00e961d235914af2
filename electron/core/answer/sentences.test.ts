/**
 * Sentence splitting on the shapes that trip naive splitters: quotations, parentheses, code,
 * abbreviations, numbers, URLs. Each row is one answer line and the sentences it must give.
 * The same table was run through Intl.Segmenter when choosing the approach (see sentences.ts).
 */
import { describe, expect, it } from 'vitest';
import { attributeSentences } from './sentences';

export const TRICKY: Array<[string, string[]]> = [
  // Quotations, straight and curly: a stop inside never ends the sentence around it.
  ['We rebuilt our original “Hello, world!” project. It still compiles.', ['We rebuilt our original “Hello, world!” project.', 'It still compiles.']],
  ['He said "Stop! Now." and left. Then it rained.', ['He said "Stop! Now." and left.', 'Then it rained.']],
  ['He asked "why?" and nobody answered. Odd.', ['He asked "why?" and nobody answered.', 'Odd.']],
  ['The docs say: "Call it once. Never twice." That is the rule.', ['The docs say: "Call it once. Never twice."', 'That is the rule.']],
  ['She wrote “It works!” Then she left.', ['She wrote “It works!”', 'Then she left.']],
  ['“Why?” she asked. Nobody knew.', ['“Why?” she asked.', 'Nobody knew.']],
  ['"Done." The end.', ['"Done."', 'The end.']],
  ['The guide calls it ‘the fast path. Mostly.’ in chapter two. Next.', ['The guide calls it ‘the fast path. Mostly.’ in chapter two.', 'Next.']],
  ['French notes say « Bonjour. Ça va ? » each morning. Fine.', ['French notes say « Bonjour. Ça va ? » each morning.', 'Fine.']],
  ['He said "hello. Then nothing. End.', ['He said "hello.', 'Then nothing.', 'End.']],
  ["The crate's API isn't stable. Use v0.3.", ["The crate's API isn't stable.", 'Use v0.3.']],
  // Parentheses and brackets.
  ['The function (which panics! rarely) returns a value. Next.', ['The function (which panics! rarely) returns a value.', 'Next.']],
  ['This is allowed (see the note. It applies.) in most cases. Next.', ['This is allowed (see the note. It applies.) in most cases.', 'Next.']],
  ['Ownership (chapter 4) matters. Borrowing (chapter 5) too.', ['Ownership (chapter 4) matters.', 'Borrowing (chapter 5) too.']],
  ['A (b "c. d" e) f. G.', ['A (b "c. d" e) f.', 'G.']],
  ['In 2024 (v1.80.0) the API changed. Ok.', ['In 2024 (v1.80.0) the API changed.', 'Ok.']],
  ['See [the book. Part one](https://a.example/x.y) here. Next.', ['See [the book. Part one](https://a.example/x.y) here.', 'Next.']],
  ['He said (quietly): "Go." Then left.', ['He said (quietly): "Go."', 'Then left.']],
  // Inline code.
  ['Use the `foo.bar()` method. It returns.', ['Use the `foo.bar()` method.', 'It returns.']],
  ['Run `cargo build. --release` now. Done.', ['Run `cargo build. --release` now.', 'Done.']],
  ['The flag `--release.` matters. Ok.', ['The flag `--release.` matters.', 'Ok.']],
  ['Use std::io::Result. It is an alias.', ['Use std::io::Result.', 'It is an alias.']],
  // Abbreviations.
  ['Use a tool (e.g. cargo). It helps.', ['Use a tool (e.g. cargo).', 'It helps.']],
  ['Lists, e.g. Vec and VecDeque, grow. They reallocate.', ['Lists, e.g. Vec and VecDeque, grow.', 'They reallocate.']],
  ['Fruits, i.e. Apples, are red. Yes.', ['Fruits, i.e. Apples, are red.', 'Yes.']],
  ['Bring pens, paper, etc. and a laptop. Then start.', ['Bring pens, paper, etc. and a laptop.', 'Then start.']],
  ['We need pens, paper, etc. The rest is provided.', ['We need pens, paper, etc.', 'The rest is provided.']],
  ['Dr. Smith wrote it. She was right.', ['Dr. Smith wrote it.', 'She was right.']],
  ['Rust vs. Go is a common debate. Both are fine.', ['Rust vs. Go is a common debate.', 'Both are fine.']],
  ['Prof. Knuth and Mr. Ritchie met. Good.', ['Prof. Knuth and Mr. Ritchie met.', 'Good.']],
  ['Approx. 5 GB are needed. Fine.', ['Approx. 5 GB are needed.', 'Fine.']],
  ['See fig. 3 for details. Then continue.', ['See fig. 3 for details.', 'Then continue.']],
  ['Open 10 a.m. to 5 p.m. daily. Ok.', ['Open 10 a.m. to 5 p.m. daily.', 'Ok.']],
  ['The U.S. Army uses it. Ok.', ['The U.S. Army uses it.', 'Ok.']],
  ['I.e. the first one. Yes.', ['I.e. the first one.', 'Yes.']],
  // Versions, decimals, file names.
  ['Version v1.2 fixed it. Upgrade now.', ['Version v1.2 fixed it.', 'Upgrade now.']],
  ['Pi is about 3.14159. Tau is 6.28.', ['Pi is about 3.14159.', 'Tau is 6.28.']],
  ['It costs $4.50 per month. Cheap.', ['It costs $4.50 per month.', 'Cheap.']],
  ['Temperatures fell to -3.5 °C. Wind rose.', ['Temperatures fell to -3.5 °C.', 'Wind rose.']],
  ['Files like notes.md and main.rs. Both exist.', ['Files like notes.md and main.rs.', 'Both exist.']],
  // URLs.
  ['See https://doc.rust-lang.org/book/ch04-01.html. It explains ownership.', ['See https://doc.rust-lang.org/book/ch04-01.html.', 'It explains ownership.']],
  ['The URL https://example.com/v1.2/x?q=a.b works. Ok.', ['The URL https://example.com/v1.2/x?q=a.b works.', 'Ok.']],
  ['More information: <https://tldr.sh/a.b>. Next.', ['More information: <https://tldr.sh/a.b>.', 'Next.']],
  ['Visit https://example.com/what?! It moved. Fine.', ['Visit https://example.com/what?!', 'It moved.', 'Fine.']],
  // Stops, ellipses, emphasis, other scripts.
  ['Is it true? Yes! Really.', ['Is it true?', 'Yes!', 'Really.']],
  ['What?! No way. Ok', ['What?!', 'No way.', 'Ok']],
  ['Wait… then go. Fine.', ['Wait… then go.', 'Fine.']],
  ['It compiled... Then it crashed.', ['It compiled...', 'Then it crashed.']],
  ['Emphasis: *Stop.* Then go.', ['Emphasis: *Stop.*', 'Then go.']],
  ['这是第一句。这是第二句！对吗？', ['这是第一句。', '这是第二句！', '对吗？']],
];

describe('attributeSentences: tricky sentences', () => {
  it('has at least 40 rows', () => expect(TRICKY.length).toBeGreaterThanOrEqual(40));
  it.each(TRICKY)('%s', (input, expected) => {
    expect(attributeSentences(input).map((s) => s.text)).toEqual(expected);
  });
});

describe('attributeSentences: markers end the sentence they follow', () => {
  const A = '3f2a9c1b0d4e#12';
  const B = '0a1b2c3d4e5f#3';
  it.each([
    [`…our original “Hello, world!” project. [${A}]`, [['…our original “Hello, world!” project.', [A]]]],
    [`He said "Stop! Now." and left. [${A}] Then it rained. [${B}]`, [['He said "Stop! Now." and left.', [A]], ['Then it rained.', [B]]]],
    [`The function (which panics! rarely) returns a value [${A}]. Use e.g. \`unwrap\` [${B}].`,
      [['The function (which panics! rarely) returns a value.', [A]], ['Use e.g. `unwrap`.', [B]]]],
    [`She wrote “It works!” [${A}] Then she left [${B}].`, [['She wrote “It works!”', [A]], ['Then she left.', [B]]]],
    [`See https://example.com/v1.2. [${A}] Version 3.5 is out (since Jan.) [${B}].`,
      [['See https://example.com/v1.2.', [A]], ['Version 3.5 is out (since Jan.).', [B]]]],
  ] as Array<[string, Array<[string, string[]]>]>)('%s', (input, expected) => {
    expect(attributeSentences(input).map((s) => [s.text, s.ids])).toEqual(expected);
  });
});

// Linear in the line: a quadratic pair scan would take minutes on these and hit the test timeout.
describe('attributeSentences: long lines of brackets and quotes', () => {
  it('does not pair stray closers with unrelated openers', () => {
    const line = `${'('.repeat(200_000)}${']'.repeat(200_000)}. Next.`;
    expect(attributeSentences(line).map((s) => s.text.length)).toEqual([400_001, 5]);
  });
  it('pairs alternating straight quotes in order', () => {
    expect(attributeSentences('"a. b" c. '.repeat(100_000).trim())).toHaveLength(100_000);
  });
});
