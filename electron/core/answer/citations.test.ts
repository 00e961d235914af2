import { describe, expect, it } from 'vitest';
import { isRefusal, parseCitations, REFUSAL, stripCitations } from './citations';

const A = '3f2a9c1b0d4e#12';
const B = '0a1b2c3d4e5f#3';

/** parseCitations reduced to [sentence, ids] pairs for compact expectations. */
const parsed = (answer: string) => parseCitations(answer).map((p) => [p.sentence, p.ids]);

describe('isRefusal', () => {
  it.each([
    REFUSAL,
    '  Not in the documents.\n',
    '"Not in the documents."',
    '\u201CNot in the documents.\u201D',
    "'Not in the documents.'",
    '`Not in the documents.`',
  ])('accepts %j', (answer) => expect(isRefusal(answer)).toBe(true));

  it.each([
    '',
    'Not in the documents',
    'not in the documents.',
    'Not in the documents!',
    '**Not in the documents.**',
    'Not in the documents. Keys rotate every 90 days.',
    'The answer is: Not in the documents.',
    `Not in the documents. [${A}]`,
    'I think it is Not in the documents.',
  ])('rejects %j', (answer) => expect(isRefusal(answer)).toBe(false));
});

describe('parseCitations: marker forms', () => {
  it.each([
    [`Keys rotate weekly [${A}].`, [A]],
    [`Keys rotate weekly [${A}][${B}].`, [A, B]],
    [`Keys rotate weekly [${A}] [${B}].`, [A, B]],
    [`Keys rotate weekly [${A}, ${B}].`, [A, B]],
    [`Keys rotate weekly [${A}; ${B}].`, [A, B]],
    [`Keys rotate weekly [${A} and ${B}].`, [A, B]],
    [`Keys rotate weekly [ ${A} ].`, [A]],
    [`Keys rotate weekly [chunk: ${A}].`, [A]],
    [`Keys rotate weekly [Source: ${A}, source:${B}].`, [A, B]],
    [`Keys rotate weekly [\`${A}\`].`, [A]],
    [`Keys rotate weekly [[${A}]].`, [A]],
    [`Keys rotate weekly [${A}][${A}].`, [A]],
    // Forged or misremembered ids are still citations, so they can be reported as unknown.
    ['Keys rotate weekly [deadbeef0000#99].', ['deadbeef0000#99']],
    ['Keys rotate weekly [notes.md#3].', ['notes.md#3']],
  ])('%s', (answer, ids) => {
    expect(parsed(answer)).toEqual([['Keys rotate weekly.', ids]]);
  });

  it.each([
    'See [the guide](notes/guide.md#3) for keys.',
    'See ![diagram](img/a.png#1) for keys.',
    '- [x] Rotate keys.',
    'Rotate keys.[^1]',
    'Rotate keys [issue #42].',
    'Rotate keys [see a#1].',
    `Call \`arr[${A}]\` to rotate keys.`,
    'Rotate keys [C#].',
  ])('is not a citation: %s', (answer) => {
    expect(parseCitations(answer).flatMap((p) => p.ids)).toEqual([]);
  });

  it('ignores markers inside fenced code, which is not a sentence', () => {
    expect(parsed(`Run this:\n\n\`\`\`\nrotate --id [${A}]. Done.\n\`\`\`\n\nIt rotates keys [${B}].`)).toEqual([
      ['Run this:', []],
      ['It rotates keys.', [B]],
    ]);
  });
});

describe('parseCitations: sentences', () => {
  it('gives a marker after the period to the sentence before it', () => {
    expect(parsed(`Keys rotate weekly. [${A}] Tokens expire daily.[${B}] Logs are kept.`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Tokens expire daily.', [B]],
      ['Logs are kept.', []],
    ]);
  });

  it('does not split at abbreviations, decimals, versions or file names', () => {
    expect(parsed(`Use a tool, e.g. the v1.2.3 build of rotate.py, i.e. the fast one. It takes 3.5 s vs. 7 s [${A}]. Done, etc. Then stop.`)).toEqual([
      ['Use a tool, e.g. the v1.2.3 build of rotate.py, i.e. the fast one.', []],
      ['It takes 3.5 s vs. 7 s.', [A]],
      ['Done, etc.', []],
      ['Then stop.', []],
    ]);
  });

  it('splits at ! and ?, and after closing quotes', () => {
    expect(parsed(`Is it weekly? Yes! He said "rotate now." Then left [${A}].`).map(([s]) => s)).toEqual([
      'Is it weekly?', 'Yes!', 'He said "rotate now."', 'Then left.',
    ]);
  });

  it('treats every line as a boundary and strips list and heading markers', () => {
    expect(parsed(`## Key rotation\nKeys rotate weekly [${A}]\nTokens expire daily [${B}]\n1. First step [${A}].\n- [ ] Second step [${B}].`)).toEqual([
      ['Key rotation', []],
      ['Keys rotate weekly', [A]],
      ['Tokens expire daily', [B]],
      ['First step.', [A]],
      ['Second step.', [B]],
    ]);
  });

  it('applies a citation at the end of a paragraph to all its sentences', () => {
    expect(parsed(`Keys rotate weekly. Old keys are revoked. Tokens expire daily. [${A}][${B}]\n\nLogs are kept.`)).toEqual([
      ['Keys rotate weekly.', [A, B]],
      ['Old keys are revoked.', [A, B]],
      ['Tokens expire daily.', [A, B]],
      ['Logs are kept.', []],
    ]);
  });

  it('applies it per list item, not across items', () => {
    expect(parsed(`- Keys rotate weekly. Old ones are revoked [${A}].\n- Tokens expire daily.`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Old ones are revoked.', [A]],
      ['Tokens expire daily.', []],
    ]);
  });

  it('does not spread citations when the paragraph is cited sentence by sentence', () => {
    expect(parsed(`Keys rotate weekly [${A}]. Old keys are revoked. Tokens expire daily [${B}].`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Old keys are revoked.', []],
      ['Tokens expire daily.', [B]],
    ]);
  });

  it('gives a line of only markers to the paragraph above, even after a blank line', () => {
    expect(parsed(`Keys rotate weekly. Tokens expire daily.\n[${A}]`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Tokens expire daily.', [A]],
    ]);
    expect(parsed(`Keys rotate weekly.\n\n[${A}]`)).toEqual([['Keys rotate weekly.', [A]]]);
  });

  it('gives a marker that opens a block to its first sentence', () => {
    expect(parsed(`[${A}] Keys rotate weekly. Tokens expire daily [${B}].`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Tokens expire daily.', [B]],
    ]);
  });

  it('numbers sentences in order and handles CRLF', () => {
    const out = parseCitations(`One [${A}].\r\nTwo.\r\nThree [${B}].`);
    expect(out.map((p) => p.sentenceIndex)).toEqual([0, 1, 2]);
    expect(out.map((p) => p.sentence)).toEqual(['One.', 'Two.', 'Three.']);
  });
});

describe('stripCitations', () => {
  it.each([
    [`Keys rotate weekly [${A}].`, 'Keys rotate weekly.'],
    [`Keys rotate weekly. [${A}] Tokens expire.`, 'Keys rotate weekly. Tokens expire.'],
    [`Keys rotate weekly [${A}][${B}], tokens daily [${B}; ${A}].`, 'Keys rotate weekly, tokens daily.'],
    [`[${A}] Keys rotate weekly.`, 'Keys rotate weekly.'],
    [`- Keys [chunk: ${A}]\n- Tokens [notes.md#3]`, '- Keys\n- Tokens'],
    ['See [the guide](guide.md#3) and - [x] done [^1].', 'See [the guide](guide.md#3) and - [x] done [^1].'],
    [`Code: \`a[${A}]\`.`, `Code: \`a[${A}]\`.`],
  ])('%s', (answer, expected) => expect(stripCitations(answer)).toBe(expected));
});

describe('parseCitations: edge cases', () => {
  it('gives markers that open the answer to its first sentence', () => {
    expect(parsed(`[${A}]\n\nKeys rotate weekly. Tokens expire daily [${B}].`)).toEqual([
      ['Keys rotate weekly.', [A]],
      ['Tokens expire daily.', [B]],
    ]);
  });

  it('keeps the ids of an answer that is nothing but markers', () => {
    expect(parsed(`[${A}] [deadbeef0000#99]`)).toEqual([['', [A, 'deadbeef0000#99']]]);
  });

  it('closes a fence only with the same kind of fence', () => {
    expect(parsed(`Intro [${A}].\n~~~\n\`\`\`\n[${B}] not a sentence.\n~~~\nOutro [${B}].`)).toEqual([
      ['Intro.', [A]],
      ['Outro.', [B]],
    ]);
  });
});
