import { describe, expect, it } from 'vitest';
import { contentStems, stem } from './stems';

describe('stem', () => {
  it.each([
    [['rotate', 'rotates', 'rotated', 'rotating'], 'rotat'],
    [['policy', 'policies'], 'policy'],
    [['copy', 'copies', 'copied', 'copying'], 'copy'],
    [['box', 'boxes'], 'box'],
    [['match', 'matches', 'matching'], 'match'],
    [['class', 'classes'], 'class'],
    [['stop', 'stops', 'stopped', 'stopping'], 'stop'],
    [['run', 'runs', 'running'], 'run'],
    [['call', 'calls', 'called'], 'call'],
    [['use', 'uses', 'used', 'using'], 'us'],
    [['database', 'databases'], 'databas'],
    [['day', 'days'], 'day'],
  ])('%j -> %s', (words, expected) => {
    expect(words.map(stem)).toEqual(words.map(() => expected));
  });

  it.each(['status', 'analysis', 'process', 'gas'])('leaves %s alone', (w) => expect(stem(w)).toBe(w));
});

describe('contentStems', () => {
  it('drops stopwords, answer filler, bare numbers and one-letter words', () => {
    expect([...contentStems('According to the notes, a key is rotated every 90 days by cron_job.')]).toEqual([
      'key', 'rotat', 'day', 'cron', 'job',
    ]);
  });
});
