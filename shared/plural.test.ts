import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('says one and many by the language\'s rules, with the number as people read it', () => {
    expect(plural(1, 'chunk')).toBe('1 chunk');
    expect(plural(0, 'chunk')).toBe('0 chunks');
    expect(plural(2, 'request')).toBe('2 requests');
    expect(plural(1234, 'passage')).toBe('1,234 passages');
    expect(plural(1, 'library', 'libraries')).toBe('1 library');
    expect(plural(3, 'library', 'libraries')).toBe('3 libraries');
  });
});
