import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { corpusFingerprint } from './fingerprint';

describe('corpusFingerprint', () => {
  it('is sha256 hex of the sorted hashes joined by newlines', () => {
    const want = createHash('sha256').update('aa\nbb\ncc').digest('hex');
    expect(corpusFingerprint(['cc', 'aa', 'bb'])).toBe(want);
  });

  it('matches a known digest', () => {
    // sha256("") and sha256("a\nb"), computed independently
    expect(corpusFingerprint([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(corpusFingerprint(['b', 'a'])).toBe(createHash('sha256').update('a\nb').digest('hex'));
  });

  it('ignores order, sees content, and leaves the input alone', () => {
    const input = ['z', 'y', 'x'];
    expect(corpusFingerprint(input)).toBe(corpusFingerprint(['x', 'y', 'z']));
    expect(input).toEqual(['z', 'y', 'x']);
    expect(corpusFingerprint(['x', 'y'])).not.toBe(corpusFingerprint(['x', 'y', 'z']));
    expect(corpusFingerprint(['ab', 'c'])).not.toBe(corpusFingerprint(['a', 'bc']));
  });
});
