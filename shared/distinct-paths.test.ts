import { describe, expect, it } from 'vitest';
import { distinctPaths } from './distinct-paths';

describe('distinctPaths', () => {
  it('keeps a path inside its folder when nothing else listed has it', () => {
    expect(distinctPaths([{ root: '/home/me/notes', path: 'ops/keys.md' }, { root: '/srv/docs', path: 'keys.md' }])).toEqual(['ops/keys.md', 'keys.md']);
  });

  it('tells the same path in two folders apart by the fewest of their folders\' segments', () => {
    expect(
      distinctPaths([
        { root: '/home/me/work/notes', path: 'key-rotation.md' },
        { root: '/home/me/home/notes', path: 'key-rotation.md' },
        { root: '/home/me/work/notes', path: 'other.md' },
      ]),
    ).toEqual(['work/notes/key-rotation.md', 'home/notes/key-rotation.md', 'other.md']);
    expect(distinctPaths([{ root: '/a/src', path: 'x.md' }, { root: 'C:\\b\\src', path: 'x.md' }])).toEqual(['a/src/x.md', 'b/src/x.md']);
  });

  it('does not count the same file listed twice (two passages of one note) as a clash', () => {
    expect(distinctPaths([{ root: '/n', path: 'a.md' }, { root: '/n', path: 'a.md' }])).toEqual(['a.md', 'a.md']);
  });
});
