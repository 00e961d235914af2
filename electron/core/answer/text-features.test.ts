import { describe, expect, it } from 'vitest';
import { buildEvidence, canonicalNumber, extractFacts, factPresent } from './text-features';

describe('canonicalNumber', () => {
  it.each([
    ['1,000', '1000'], ['007', '7'], ['3.50', '3.5'], ['3.0', '3'], ['0', '0'], ['0.25', '0.25'], ['10:30', '10:30'], ['1.2.3', '1.2.3'],
  ])('%s -> %s', (raw, expected) => expect(canonicalNumber(raw)).toBe(expected));
});

describe('extractFacts', () => {
  const facts = (s: string) => extractFacts(s).map((f) => `${f.kind}:${f.surface}`);

  it.each([
    ['Keys rotate every 90 days.', ['number:90']],
    ['It allows 1,000 requests, 90% of the time, for 3.5 s.', ['number:1,000', 'number:90', 'number:3.5']],
    ['Released on 2024-01-15 at 10:30.', ['number:2024', 'number:01', 'number:15', 'number:10:30']],
    ['Latency is 10ms on the 2nd try; a 30-day window.', ['number:10ms', 'number:2nd', 'number:30']],
    ['Install v1.2.3 of Node.js and read config.yaml.', ['identifier:v1.2.3', 'identifier:Node.js', 'identifier:config.yaml']],
    ['Call Vec::with_capacity, set max_connections and use getUserName.', ['identifier:Vec::with_capacity', 'identifier:max_connections', 'identifier:getUserName']],
    ['Run `cargo build --release` and check "build finished".', ['quote:"build finished"', 'identifier:`cargo build --release`']],
    ['Use SHA256 or ed25519 keys.', ['identifier:SHA256', 'identifier:ed25519']],
    // Abbreviations, ordinary hyphenated and slashed words, capitals and _emphasis_ are not facts.
    ['Use e.g. a well-known read/write API, i.e. the _important_ one, in the U.S.', []],
  ])('%s', (sentence, expected) => expect(facts(sentence)).toEqual(expected));

  it('deduplicates by value', () => {
    expect(facts('Rotate after 90 days, and 90 days again; 1,000 or 1000.')).toEqual(['number:90', 'number:1,000']);
  });
});

describe('factPresent', () => {
  const evidence = buildEvidence(['Rotate keys every ninety days (see `key_rotation_days`).', 'Limit: 1\u202F000 req; v2.4.1; at 10:30; "Rotation Completed!"']);
  const present = (sentence: string) => extractFacts(sentence).map((f) => factPresent(f, evidence));

  it.each([
    ['every 90 days', [true]],
    ['every 60 days', [false]],
    ['1,000 requests', [true]],
    ['version 2.4.1', [true]],
    ['version 2.4', [false]],
    ['at 10', [true]],
    ['key_rotation_days', [true]],
    ['key_rotation', [false]],
    ['"rotation completed"', [true]],
    // A phrase must not be stitched together across two chunks.
    ['"key_rotation_days limit"', [false]],
  ])('%s', (sentence, expected) => expect(present(sentence)).toEqual(expected));
});

describe('extractFacts: spaced thousands', () => {
  it('reads "1\u202F000" as one number', () => {
    expect(extractFacts('It allows 1\u202F000 requests.').map((f) => [f.kind, f.value])).toEqual([['number', '1000']]);
  });
});

describe('compatibility characters', () => {
  it('finds the facts of a plainly written sentence in a chunk with fullwidth digits and ligatures', () => {
    const evidence = buildEvidence(['Keys rotate every ９０ days; see the ﬁle cron_job.']);
    for (const fact of extractFacts('Keys rotate every 90 days (cron_job).')) expect(factPresent(fact, evidence), fact.surface).toBe(true);
    const [wrong] = extractFacts('Keys rotate every 30 days.');
    expect(factPresent(wrong!, evidence)).toBe(false);
  });
});
