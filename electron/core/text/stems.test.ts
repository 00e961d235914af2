import { describe, expect, it } from 'vitest';
import { contentStems, questionWords, stem } from './stems';

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

describe('questionWords', () => {
  it('counts the distinct stems of the question a text holds, as contentStems finds them on both sides', () => {
    const shared = questionWords('Which policies copy the rotated keys?');
    // policies/policy, copied/copy, rotating/rotate: one each, however often.
    expect(shared('The policy copied keys while rotating them; another policy copies more.')).toBe(4);
    expect(shared('Nothing here is about that.')).toBe(0);
    // Stopwords in the question are not its words.
    expect(questionWords('which of the')('which of the')).toBe(contentStems('which of the').size);
    // The same count as intersecting contentStems of both, on a longer text.
    const text = 'Policies are copied nightly. A rotated key stays valid for a day; keys that rotate twice are revoked.';
    const wanted = contentStems('Which policies copy the rotated keys?');
    expect(shared(text)).toBe([...contentStems(text)].filter((w) => wanted.has(w)).length);
  });

  it('leaves accents out on both sides, as the keyword index does', () => {
    // qué/que, canción/cancion, suena (the stopwords are English ones: "que" counts).
    expect(questionWords('¿Qué canción suena?')('La cancion que suena al final.')).toBe(3);
    expect(questionWords('cancion')('Una canción.')).toBe(1);
    expect(questionWords('anything')('')).toBe(0);
    expect(questionWords('')('any text')).toBe(0);
  });
});
