import { useCallback, useEffect, useState } from 'react';
import { scopeLabel } from '../../../../shared/scope-path';
import { useClient } from '../../app/client';
import { useReloadOn } from '../../app/reload';
import { pruneScope, sameScopePlace, setScope, useScopeState, type ScopePlace } from './scope';
import { folderPaths, folderTree } from './scope-tree';
import { ScopeSummary } from './ScopeSummary';
import { ScopeTree, type ScopeFolder } from './ScopeTree';

interface Folder extends ScopeFolder {
  /** Its folders holding documents, at any depth. */
  paths: Set<string>;
}

/** Which folders a question is asked of: all (the default), or the folders and the folders inside them ticked. */
export function ScopePicker() {
  const client = useClient();
  const { places: scope, fromConversation } = useScopeState();
  // null until the library is first read: nothing is pruned against a library not yet known.
  const [folders, setFolders] = useState<Folder[] | null>(null);

  const load = useCallback(
    () =>
      client.library({}).then(
        (l) =>
          setFolders(
            l.collections.map((c) => {
              const tree = folderTree(c.documents.map((d) => d.relPath));
              return { id: c.id, name: c.name, root: c.root, tree, paths: new Set(folderPaths(tree)) };
            }),
          ),
        () => setFolders((was) => was ?? []),
      ),
    [client],
  );
  useReloadOn(load, (e) => e.type === 'library.changed');

  // A folder that left the library (or a folder inside it left with no document) leaves the scope
  // too, whether ticked here or set by opening a conversation that was asked of it.
  useEffect(() => {
    if (folders === null) return;
    pruneScope((p) => folders.some((f) => f.id === p.collectionId && (p.path === '' || f.paths.has(p.path))));
  }, [folders, scope]);

  // Shown when there is a choice: two folders, or one with folders inside it.
  const list = folders ?? [];
  const choices = list.reduce((n, f) => n + 1 + f.paths.size, 0);
  if (list.length === 0 || choices < 2) return null;
  const ticked = (p: ScopePlace) => scope.some((s) => sameScopePlace(s, p));
  const labels = scope
    .map((p) => {
      const f = list.find((x) => x.id === p.collectionId);
      return f ? scopeLabel({ name: f.name, path: p.path }) : null;
    })
    .filter((x) => x !== null);
  // setScope drops the folders inside one ticked now.
  const toggle = (p: ScopePlace) => setScope(ticked(p) ? scope.filter((s) => !sameScopePlace(s, p)) : [...scope, p]);
  return (
    <details className="scope" data-testid="scope-picker">
      <ScopeSummary labels={labels} fromConversation={fromConversation} />
      <fieldset className="scope__list">
        <legend className="visually-hidden">Folders to ask of</legend>
        <label>
          <input type="checkbox" checked={scope.length === 0} onChange={() => setScope([])} /> All folders
        </label>
        <ScopeTree folders={list} scope={scope} onToggle={toggle} />
      </fieldset>
    </details>
  );
}
