import { describe, expect, it } from 'vitest';
import { FakeSecretBox } from '../../../test/support/fake-secret-box';
import { openStoredHeaders, parseStoredHeaders, patchStoredHeaders, plainCount, sealPlainHeaders } from './saved-headers';

describe('the saved headers’ stored form', () => {
  it('reads the plain form older Quires wrote, and counts anything else as nothing saved', () => {
    expect(parseStoredHeaders('{"Authorization":"Bearer a"}')).toEqual({ Authorization: 'Bearer a' });
    expect(parseStoredHeaders('{"Authorization":{"sealed":"x","by":"b"}}')).toEqual({ Authorization: { sealed: 'x', by: 'b' } });
    for (const stale of [null, '', 'not json', '["a"]', '{"A":1}', '{"A":{"sealed":"x"}}', '{"A":{"sealed":"x","by":"b","value":"v"}}']) expect(parseStoredHeaders(stale)).toEqual({});
  });

  it('a patch replaces a header whatever the case of its name, removes with null, keeps the others as stored, and seals only with a box that protects', () => {
    const box = new FakeSecretBox();
    const stored = { Authorization: { sealed: 'old', by: box.id }, 'X-Team': 'docs' };
    const patched = patchStoredHeaders(stored, { authorization: 'Bearer new', 'x-team': null, 'X-Other': 'o' }, box);
    expect(Object.keys(patched)).toEqual(['authorization', 'X-Other']);
    expect(openStoredHeaders(patched, box).headers).toEqual({ authorization: 'Bearer new', 'X-Other': 'o' });
    expect(plainCount(patched)).toBe(0);
    expect(patchStoredHeaders({ A: { sealed: 'kept', by: 'other' } }, { B: 'b' }, new FakeSecretBox({ protects: false }))).toEqual({ A: { sealed: 'kept', by: 'other' }, B: 'b' });
    expect(patchStoredHeaders({}, { B: 'b' }, null)).toEqual({ B: 'b' });
  });

  it('sealing every plain entry keeps sealed ones untouched; a box that refuses throws', () => {
    const box = new FakeSecretBox();
    const sealed = sealPlainHeaders({ A: 'a', B: { sealed: 'b', by: box.id } }, box);
    expect(sealed.B).toEqual({ sealed: 'b', by: box.id });
    expect(box.open((sealed.A as { sealed: string }).sealed)).toBe('a');
    box.refuse = true;
    expect(() => sealPlainHeaders({ A: 'a' }, box)).toThrow();
  });

  it('a value that opens to something no header may hold (a line break) is named as damaged, not sent', () => {
    const box = new FakeSecretBox();
    const { headers, unreadable } = openStoredHeaders({ A: { sealed: box.seal('x\r\nEvil: 1'), by: box.id }, B: 'b' }, box);
    expect(headers).toEqual({ B: 'b' });
    expect(unreadable).toEqual([{ name: 'A', message: expect.stringMatching(/^The saved value of the Ollama request header A is not a valid header value \(damaged\); requests go without it\./) }]);
    expect(unreadable[0]!.message).not.toContain('Evil');
  });
});
