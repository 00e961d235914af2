import { readFileSync } from 'node:fs';
import { QuireError } from '../../../shared/errors';
import { describe, expect, it } from 'vitest';
import { escapeRegex } from '../text/normalise';
import { parseQuestionSet } from './questions';

const json = (v: unknown) => JSON.stringify(v);

describe('parseQuestionSet: accepted forms', () => {
  it('reads the nested form', () => {
    const qs = parseQuestionSet(
      json([
        { id: 'a', question: 'Q a?', expect: { chunkFact: 'every 90 days', answerRegex: '90 ?days', answerable: true } },
        { id: 'b', question: 'Q b?', expect: { answerable: false }, file: 'notes/b.md' },
        { id: 'c', question: 'Q c?', expect: { answerRegex: 'x', answerable: true } },
      ]),
    );
    expect(qs).toEqual([
      { id: 'a', question: 'Q a?', expect: { chunkFact: 'every 90 days', answerRegex: '90 ?days', answerable: true } },
      { id: 'b', question: 'Q b?', expect: { answerable: false }, file: 'notes/b.md' },
      { id: 'c', question: 'Q c?', expect: { answerRegex: 'x', answerable: true } },
    ]);
  });

  it('reads the flat form inside { questions }, treating null as absent', () => {
    const qs = parseQuestionSet(
      json({
        questions: [
          { id: 'p', question: 'Price?', chunk_fact: 'costs $5.00 (net)', answer_fact: '$5.00 (net)', answerable: true, file: 'p.md' },
          { id: 'u', question: 'Unknown?', chunk_fact: null, answer_fact: null, answerable: false, file: null },
        ],
      }),
    );
    expect(qs).toEqual([
      { id: 'p', question: 'Price?', expect: { chunkFact: 'costs $5.00 (net)', answerRegex: '\\$5\\.00 \\(net\\)', answerable: true }, file: 'p.md' },
      { id: 'u', question: 'Unknown?', expect: { answerable: false } },
    ]);
  });

  it('turns answer_fact into a regex matching that text literally', () => {
    const [q] = parseQuestionSet(json([{ id: 'p', question: 'Q?', answer_fact: 'a.b*[c]? ^$ {2} (x|y) \\ /', answerable: true }]));
    const re = new RegExp(q!.expect.answerRegex!, 'i');
    expect(re.test('so A.B*[C]? ^$ {2} (X|Y) \\ / it is')).toBe(true);
    expect(re.test('aXbbbc ^$ {2} x \\ /')).toBe(false);
    expect(escapeRegex('1+1=2')).toBe('1\\+1=2');
  });

  it('collapses whitespace in answer_fact as answers are collapsed before matching', () => {
    const [q] = parseQuestionSet(json([{ id: 'p', question: 'Q?', answer_fact: ' every  90\tdays ', answerable: true }]));
    expect(q!.expect.answerRegex).toBe('every 90 days');
  });

  it('accepts the sample question set shipped in resources/', () => {
    const text = readFileSync(new URL('../../../resources/sample-notes/.quire-questions.json', import.meta.url), 'utf8');
    const qs = parseQuestionSet(text, '.quire-questions.json');
    expect(qs.length).toBe(7);
    expect(qs.filter((q) => !q.expect.answerable).map((q) => q.id)).toEqual(['vault-password', 'office-wifi']);
  });
});

describe('parseQuestionSet: problems', () => {
  const ok = { id: 'a', question: 'Q?', expect: { chunkFact: 'f', answerable: true } };
  const regexError = (() => {
    try {
      new RegExp('(', 'i');
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('"(" should not compile');
  })();

  const one = (problem: string) => `test.json: 1 problem:\n  - ${problem}`;

  it.each<[string, unknown[], string]>([
    ['empty question', [{ ...ok, question: '  ' }], 'entry 1 (id "a"): "question" must be a non-empty string'],
    ['missing question', [{ id: 'a', expect: ok.expect }], 'entry 1 (id "a"): "question" must be a non-empty string'],
    ['numeric id', [{ ...ok, id: 5 }], 'entry 1: "id" must be a non-empty string'],
    ['expect not an object', [{ ...ok, expect: 'yes' }], 'entry 1 (id "a"): "expect" must be an object'],
    ['answerable as a string', [{ ...ok, expect: { chunkFact: 'f', answerable: 'true' } }], 'entry 1 (id "a"): "expect.answerable" must be true or false'],
    ['flat without answerable', [{ id: 'a', question: 'Q?', chunk_fact: 'f' }], 'entry 1 (id "a"): "answerable" must be true or false'],
    ['empty chunkFact', [{ ...ok, expect: { chunkFact: '', answerable: true } }], 'entry 1 (id "a"): "expect.chunkFact" must be a non-empty string'],
    ['file not a string', [{ ...ok, file: 3 }], 'entry 1 (id "a"): "file" must be a non-empty string'],
    ['bad regex', [{ ...ok, expect: { answerRegex: '(', answerable: true } }], `entry 1 (id "a"): "expect.answerRegex" is not a valid regular expression (${regexError})`],
    ['answerable without facts (nested)', [{ ...ok, expect: { answerable: true } }], 'entry 1 (id "a"): answerable question needs "expect.chunkFact" or "expect.answerRegex"'],
    ['answerable without facts (flat)', [{ id: 'a', question: 'Q?', answerable: true }], 'entry 1 (id "a"): answerable question needs "chunk_fact" or "answer_fact"'],
    ['unanswerable with chunkFact', [{ ...ok, expect: { chunkFact: 'f', answerable: false } }], 'entry 1 (id "a"): unanswerable question must not have "expect.chunkFact"'],
    ['unanswerable with chunk_fact', [{ id: 'a', question: 'Q?', chunk_fact: 'f', answerable: false }], 'entry 1 (id "a"): unanswerable question must not have "chunk_fact"'],
    ['duplicate id', [ok, { ...ok, question: 'again?' }], 'entry 2 (id "a"): duplicate id (first used by entry 1)'],
    ['entry not an object', ['what?'], 'entry 1: must be an object'],
  ])('%s', (_name, entries, problem) => {
    expect(() => parseQuestionSet(json(entries), 'test.json')).toThrow(new QuireError('INVALID_QUESTION_SET', one(problem)));
  });

  it('reports every problem in one entry and across entries, numbered from 1', () => {
    const text = json([ok, { id: 'b', question: '', expect: {} }, { id: 'c', question: 'Q?', expect: { answerable: true } }]);
    expect(() => parseQuestionSet(text, 'test.json')).toThrow(
      new QuireError(
        'INVALID_QUESTION_SET',
        [
          'test.json: 3 problems:',
          '  - entry 2 (id "b"): "question" must be a non-empty string',
          '  - entry 2 (id "b"): "expect.answerable" must be true or false',
          '  - entry 3 (id "c"): answerable question needs "expect.chunkFact" or "expect.answerRegex"',
        ].join('\n'),
      ),
    );
  });

  it('lists the first 20 problems and counts the rest', () => {
    const entries = Array.from({ length: 23 }, (_, i) => ({ id: `q${i + 1}`, question: '', expect: ok.expect }));
    let message = '';
    try {
      parseQuestionSet(json(entries));
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe('question set: 23 problems:');
    expect(lines.length).toBe(22);
    expect(lines[20]).toBe('  - entry 20 (id "q20"): "question" must be a non-empty string');
    expect(lines[21]).toBe('  … and 3 more');
  });

  it.each([
    ['not JSON', '{', /^test\.json: 1 problem:\n {2}- not valid JSON at line 1, column 2: expected more text \(the file ends before the JSON does\)$/],
    ['a bare object', json({ id: 'a' }), /top level must be an array of questions or an object with a "questions" array$/],
    ['an empty list', json({ questions: [] }), /- contains no questions$/],
  ])('rejects %s', (_name, text, pattern) => {
    expect(() => parseQuestionSet(text, 'test.json')).toThrow(pattern);
  });
});

describe('parseQuestionSet: where a problem is, by line', () => {
  const problemOf = (text: string): string => {
    try {
      parseQuestionSet(text, 'mine.json');
    } catch (e) {
      return (e as Error).message.split('\n').slice(1).join('\n');
    }
    throw new Error('expected the set to be refused');
  };
  const entry = (id: string, answerable = 'true') => `  { "id": "${id}", "question": "Q?", "expect": { "chunkFact": "f", "answerable": ${answerable} } }`;

  it.each<[string, string, string]>([
    ['a missing comma between entries', ['[', entry('a'), entry('b'), ']'].join('\n'), "  - not valid JSON at line 3, column 3: expected ',' or ']' after a list item"],
    ['a comma after the last entry', ['[', `${entry('a')},`, ']'].join('\n'), '  - not valid JSON at line 3, column 1: expected another value after the comma (a comma may not end a list)'],
    ['a comma after the last property', ['[', '  { "id": "a", "question": "Q?",', '  }', ']'].join('\n'), '  - not valid JSON at line 3, column 3: expected another property after the comma (a comma may not end an object)'],
    ['a name without quotes', ['[', '  { id: "a" }', ']'].join('\n'), '  - not valid JSON at line 2, column 5: expected a property name in double quotes'],
    ['single quotes', ['[', "  { \"id\": 'a' }", ']'].join('\n'), '  - not valid JSON at line 2, column 11: expected a value: a string in double quotes, a number, true, false, null, an object or a list'],
    ['a string broken over two lines', ['[', '  { "id": "a', '" }', ']'].join('\n'), '  - not valid JSON at line 2, column 13: expected a closing " before the end of the line (write a line break in a string as \\n)'],
    ['a file cut short', ['[', entry('a')].join('\n'), '  - not valid JSON at line 2, column 86: expected more text (the file ends before the JSON does)'],
  ])('%s is named by line and column', (_name, text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  it('names each bad entry by the line it starts on', () => {
    const text = ['{ "questions": [', entry('a'), ',', entry('b', '"yes"'), '] }'].join('\n');
    expect(problemOf(text)).toBe('  - entry 2 (id "b", line 4): "expect.answerable" must be true or false');
  });

  it('reads a file that starts with a byte order mark', () => {
    expect(parseQuestionSet(`\uFEFF${['[', entry('a'), ']'].join('\n')}`).map((q) => q.id)).toEqual(['a']);
  });
});
