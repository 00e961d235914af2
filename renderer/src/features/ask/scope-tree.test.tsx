import { afterEach, describe, expect, it } from 'vitest';
import { holdsFolder } from '../../../../shared/scope-path';
import { folderPaths, folderTree, shortScopeLabel } from './scope-tree';
import { getScope, setScope } from './scope';

afterEach(() => setScope([]));

describe('the folders of an imported folder', () => {
  it('lists every folder holding a document at any depth, sorted at each level, parents first', () => {
    const tree = folderTree(['todo.md', 'work/projects/q3/plan.md', 'work/keys.md', 'work/archive/old.md', 'home/x.md']);
    expect(tree.map((n) => n.name)).toEqual(['home', 'work']);
    expect(tree[1]!.children.map((n) => n.path)).toEqual(['work/archive', 'work/projects']);
    expect(tree[1]!.children[1]!.children).toEqual([{ path: 'work/projects/q3', name: 'q3', children: [] }]);
    expect(folderPaths(tree)).toEqual(['home', 'work', 'work/archive', 'work/projects', 'work/projects/q3']);
    expect(folderTree(['a.md', 'b.md'])).toEqual([]);
  });

  it('a folder holds the folders below it, never a sibling that starts with its name', () => {
    expect(holdsFolder('', 'work')).toBe(true);
    expect(holdsFolder('work', 'work/projects/q3')).toBe(true);
    expect(holdsFolder('work', 'workshop')).toBe(false);
    expect(holdsFolder('work', 'work')).toBe(false);
  });

  it('ticking a folder drops the folders inside it already ticked, at any depth, and nothing else', () => {
    setScope([
      { collectionId: 'c1', path: 'work/projects/q3' },
      { collectionId: 'c1', path: 'workshop' },
      { collectionId: 'c2', path: 'work/projects' },
      { collectionId: 'c1', path: 'work' },
    ]);
    expect(getScope()).toEqual([
      { collectionId: 'c1', path: 'workshop' },
      { collectionId: 'c2', path: 'work/projects' },
      { collectionId: 'c1', path: 'work' },
    ]);
  });

  it('the summary stays short: every part while they fit, else the first and how many more', () => {
    expect(shortScopeLabel([])).toEqual({ lead: 'All folders', more: 0 });
    expect(shortScopeLabel(['notes/work', 'home'])).toEqual({ lead: 'notes/work, home', more: 0 });
    expect(shortScopeLabel(['notes/work/projects', 'notes/home/garden/beds', 'notes/recipes/bread'])).toEqual({ lead: 'notes/work/projects', more: 2 });
  });
});
