import { useCallback, useState } from 'react';
import { scopeLabel } from '../../../../shared/scope-path';
import { useClient } from '../../app/client';
import { useReloadOn } from '../../app/reload';
import { getScope, sameScopePlace, setScope, useScope, type ScopePlace } from './scope';
import { folderPaths, folderTree, shortScopeLabel, type FolderNode } from './scope-tree';
import { ScopeTree } from './ScopeTree';

interface Folder {
  id: string;
  name: string;
  root: string;
  /** Its folders holding documents, at any depth. */
  tree: FolderNode[];
  paths: Set<string>;
}

/** Which folders a question is asked of: all (the default), or the folders and the folders inside them ticked. */
export function ScopePicker() {
  const client = useClient();
  const scope = useScope();
  const [folders, setFolders] = useState<Folder[]>([]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const load = useCallback(
    () =>
      client.library({}).then(
        (l) => {
          const list = l.collections.map((c) => {
            const tree = folderTree(c.documents.map((d) => d.relPath));
            return { id: c.id, name: c.name, root: c.root, tree, paths: new Set(folderPaths(tree)) };
          });
          setFolders(list);
          // A folder that left the library (or a folder inside it left with no document) leaves the
          // scope too. Read, not depended on: ticking a folder must not reload the library.
          const there = (p: ScopePlace) => list.some((f) => f.id === p.collectionId && (p.path === '' || f.paths.has(p.path)));
          const now = getScope();
          if (now.some((p) => !there(p))) setScope(now.filter(there));
        },
        () => setFolders([]),
      ),
    [client],
  );
  useReloadOn(load, (e) => e.type === 'library.changed');

  // Shown when there is a choice: two folders, or one with folders inside it.
  const choices = folders.reduce((n, f) => n + 1 + f.paths.size, 0);
  if (folders.length === 0 || choices < 2) return null;
  const ticked = (p: ScopePlace) => scope.some((s) => sameScopePlace(s, p));
  const labels = scope
    .map((p) => {
      const f = folders.find((x) => x.id === p.collectionId);
      return f ? scopeLabel({ name: f.name, path: p.path }) : null;
    })
    .filter((x) => x !== null);
  // setScope drops the folders inside one ticked now.
  const toggle = (p: ScopePlace) => setScope(ticked(p) ? scope.filter((s) => !sameScopePlace(s, p)) : [...scope, p]);
  const expand = (key: string) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return (
    <details className="scope" data-testid="scope-picker">
      <summary>
        Ask of:{' '}
        <strong className="scope__summary" title={labels.join(', ') || undefined}>
          {shortScopeLabel(labels)}
        </strong>
      </summary>
      <fieldset className="scope__list">
        <legend className="visually-hidden">Folders to ask of</legend>
        <label>
          <input type="checkbox" checked={scope.length === 0} onChange={() => setScope([])} /> All folders
        </label>
        {folders.map((f) => {
          const whole = ticked({ collectionId: f.id, path: '' });
          return (
            <div key={f.id} className="scope__folder">
              <label title={f.root}>
                <input type="checkbox" checked={whole} onChange={() => toggle({ collectionId: f.id, path: '' })} /> {f.name}
              </label>
              {f.tree.length > 0 && (
                <ScopeTree
                  collectionId={f.id}
                  name={f.name}
                  root={f.root}
                  nodes={f.tree}
                  parent=""
                  covered={whole}
                  scope={scope}
                  onToggle={toggle}
                  expanded={expanded}
                  onExpand={expand}
                />
              )}
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}
