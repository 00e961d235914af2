import { scopeLabel } from '../../../../shared/scope-path';
import type { FolderNode } from './scope-tree';
import { holdsFolder } from '../../../../shared/scope-path';
import type { ScopePlace } from './scope';

export interface ScopeTreeProps {
  collectionId: string;
  /** The imported folder's name and root, for labels and tooltips. */
  name: string;
  root: string;
  /** The folders shown at this level (inside `parent`). */
  nodes: readonly FolderNode[];
  /** The folder these are inside: '' for the imported folder itself. */
  parent: string;
  /** A folder above this level is ticked: everything here is covered, shown ticked and not choosable. */
  covered: boolean;
  scope: readonly ScopePlace[];
  onToggle: (place: ScopePlace) => void;
  /** Folders opened by the person, by `expandKey`; everything below the top level starts closed. */
  expanded: ReadonlySet<string>;
  onExpand: (key: string) => void;
}

export const expandKey = (collectionId: string, path: string) => `${collectionId}\n${path}`;

/** One level of an imported folder's folders, each with a checkbox and, when it holds folders, a toggle to show them. */
export function ScopeTree(props: ScopeTreeProps) {
  const { collectionId, name, root, nodes, parent, covered, scope, onToggle, expanded, onExpand } = props;
  const label = (path: string) => scopeLabel({ name, path });
  return (
    <div className="scope__subfolders" role="group" aria-label={`Folders inside ${label(parent)}`}>
      {nodes.map((n) => {
        const ticked = scope.some((s) => s.collectionId === collectionId && s.path === n.path);
        const open = expanded.has(expandKey(collectionId, n.path));
        // Ticked places hidden in a closed folder are counted beside it, so the summary is never a surprise.
        const inside = open ? 0 : scope.filter((s) => s.collectionId === collectionId && holdsFolder(n.path, s.path)).length;
        return (
          <div key={n.path} className="scope__node">
            <div className="scope__row">
              {n.children.length > 0 ? (
                <button
                  type="button"
                  className="scope__expand"
                  aria-expanded={open}
                  aria-label={`Folders inside ${label(n.path)}`}
                  title={open ? 'Hide the folders inside' : 'Show the folders inside'}
                  onClick={() => onExpand(expandKey(collectionId, n.path))}
                >
                  <span aria-hidden="true">▸</span>
                </button>
              ) : (
                <span className="scope__expand-space" aria-hidden="true" />
              )}
              <label title={`${root}/${n.path}`}>
                <input
                  type="checkbox"
                  aria-label={label(n.path)}
                  checked={covered || ticked}
                  disabled={covered}
                  onChange={() => onToggle({ collectionId, path: n.path })}
                />{' '}
                {n.name}/{inside > 0 && <span className="muted small"> · {inside} ticked inside</span>}
              </label>
            </div>
            {open && <ScopeTree {...props} nodes={n.children} parent={n.path} covered={covered || ticked} />}
          </div>
        );
      })}
    </div>
  );
}
