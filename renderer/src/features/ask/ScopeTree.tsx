import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { holdsFolder, scopeLabel } from '../../../../shared/scope-path';
import { sameScopePlace, type ScopePlace } from './scope';
import type { FolderNode } from './scope-tree';
import { TYPE_AHEAD_MS, treeKeyMove, typeAheadMove } from './tree-keys';

/** An imported folder as the tree shows it: its own row, with its folders holding documents below. */
export interface ScopeFolder {
  id: string;
  name: string;
  root: string;
  tree: FolderNode[];
}

interface ScopeTreeProps {
  folders: readonly ScopeFolder[];
  scope: readonly ScopePlace[];
  onToggle: (place: ScopePlace) => void;
}

const placeKey = (collectionId: string, path: string) => `${collectionId}\n${path}`;

/**
 * The imported folders and the folders inside them, at any depth, as a WAI-ARIA tree of checkable
 * items: one Tab stop (roving tabindex), Up/Down between the rows shown, Right opens a folder or
 * goes to its first folder, Left closes it or goes to its parent, Home/End, Space ticks, and typing
 * a folder's first letters goes to the next folder so named (type-ahead). A click
 * on a row ticks it; on its arrow, opens or closes it. Imported folders start open, the folders
 * inside them closed.
 */
export function ScopeTree({ folders, scope, onToggle }: ScopeTreeProps) {
  // The folders opened or closed by the person: whichever differ from how they start.
  const [flipped, setFlipped] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  // What was typed for type-ahead, and when its last character came.
  const typed = useRef({ text: '', at: 0 });
  const idBase = useId();
  const isOpen = (collectionId: string, path: string) => (path === '') !== flipped.has(placeKey(collectionId, path));
  const flip = (key: string) =>
    setFlipped((was) => {
      const next = new Set(was);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  // The one row in the Tab order: the last one moved to, while it is shown; else the first.
  const shown: string[] = [];
  const walk = (collectionId: string, nodes: readonly FolderNode[]) => {
    for (const n of nodes) {
      shown.push(placeKey(collectionId, n.path));
      if (isOpen(collectionId, n.path)) walk(collectionId, n.children);
    }
  };
  for (const f of folders) {
    shown.push(placeKey(f.id, ''));
    if (isOpen(f.id, '')) walk(f.id, f.tree);
  }
  const tabStop = active !== null && shown.includes(active) ? active : shown[0];

  const place = (item: HTMLElement): ScopePlace => ({ collectionId: item.dataset.collection!, path: item.dataset.path! });
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    // Ctrl/Alt/Meta with an arrow belong to the browser and the system (scrolling, history).
    if (!item || !treeRef.current || e.altKey || e.ctrlKey || e.metaKey) return;
    const rows = [...treeRef.current.querySelectorAll<HTMLElement>('[role="treeitem"]')];
    // A printable character goes to the next folder whose name starts with what was typed; Space
    // ticks unless a name is being typed (a folder's name may hold a space).
    const now = Date.now();
    const continuing = now - typed.current.at < TYPE_AHEAD_MS && typed.current.text !== '';
    if ([...e.key].length === 1 && (e.key !== ' ' || continuing)) {
      const text = continuing ? typed.current.text + e.key : e.key;
      typed.current = { text, at: now };
      // The same letter again goes on to the next folder that starts with it.
      const again = [...text].every((c) => c === text[0]);
      const to = typeAheadMove(again ? text[0]! : text, item, rows, (row) => row.dataset.name ?? '', continuing && !again);
      e.preventDefault();
      if (to) {
        setActive(placeKey(to.dataset.collection!, to.dataset.path!));
        to.focus();
      }
      return;
    }
    typed.current = { text: '', at: 0 };
    const move = treeKeyMove(e.key, item, rows);
    if (move === null) return;
    e.preventDefault();
    const p = place(item);
    if (move === 'toggle') {
      if (item.getAttribute('aria-disabled') !== 'true') onToggle(p);
    } else if (move === 'open' || move === 'close') {
      flip(placeKey(p.collectionId, p.path));
    } else {
      const to = place(move);
      setActive(placeKey(to.collectionId, to.path));
      move.focus();
    }
  };

  // Plain functions, not components: a component declared in here would be a new type each render, and remount (losing focus).
  const group = (f: ScopeFolder, path: string, nodes: readonly FolderNode[], level: number, covered: boolean) => (
    <ul className="scope__subfolders" role="group" aria-label={`Folders inside ${scopeLabel({ name: f.name, path })}`}>
      {nodes.map((n) => item(f, n, level, covered))}
    </ul>
  );

  const item = (f: ScopeFolder, node: FolderNode, level: number, covered: boolean) => {
    const { path } = node;
    const key = placeKey(f.id, path);
    const ticked = scope.some((s) => sameScopePlace(s, { collectionId: f.id, path }));
    const hasFolders = node.children.length > 0;
    const open = hasFolders && isOpen(f.id, path);
    // Ticked places hidden in a closed folder are counted beside it, so the summary is never a surprise.
    const inside = open ? 0 : scope.filter((s) => s.collectionId === f.id && holdsFolder(path, s.path)).length;
    // Said by a screen reader with the row, as the sighted read it beside the name.
    const insideId = inside > 0 ? `${idBase}-inside-${shown.indexOf(key)}` : undefined;
    const onClick = (e: MouseEvent<HTMLLIElement>) => {
      const target = e.target as HTMLElement;
      // A click inside a folder shown within this one is that folder's.
      if (target.closest('[role="treeitem"]') !== e.currentTarget) return;
      setActive(key);
      if (target.closest('.scope__expand')) {
        // Closing the folder that holds the focused row would leave focus nowhere: it comes here.
        const focused = document.activeElement;
        if (open && focused !== e.currentTarget && focused !== null && e.currentTarget.contains(focused)) e.currentTarget.focus();
        flip(key);
      } else if (!covered) onToggle({ collectionId: f.id, path });
    };
    return (
      <li
        key={key}
        className="scope__node"
        role="treeitem"
        aria-level={level}
        aria-label={scopeLabel({ name: f.name, path })}
        aria-checked={covered || ticked}
        aria-disabled={covered || undefined}
        aria-expanded={hasFolders ? open : undefined}
        aria-describedby={insideId}
        tabIndex={key === tabStop ? 0 : -1}
        data-collection={f.id}
        data-path={path}
        data-name={level === 1 ? f.name : node.name}
        onClick={onClick}
      >
        <span className="scope__row" title={path ? `${f.root}/${path}` : f.root}>
          {hasFolders ? (
            <span className="scope__expand" aria-hidden="true" title={open ? 'Hide the folders inside' : 'Show the folders inside'}>
              <span>▸</span>
            </span>
          ) : (
            <span className="scope__expand-space" aria-hidden="true" />
          )}
          {/* Only a picture of the tick: the row is the control (aria-checked), so this is neither focused nor clicked. */}
          <input type="checkbox" className="scope__check" tabIndex={-1} aria-hidden="true" checked={covered || ticked} disabled={covered} readOnly />
          <span className="scope__name">
            {level === 1 ? f.name : `${node.name}/`}
            {inside > 0 && (
              <span className="muted small" id={insideId}>
                {' '}
                · {inside} ticked inside
              </span>
            )}
          </span>
        </span>
        {open && group(f, path, node.children, level + 1, covered || ticked)}
      </li>
    );
  };

  return (
    <ul className="scope__tree" role="tree" aria-label="Folders" ref={treeRef} onKeyDown={onKeyDown}>
      {folders.map((f) => item(f, { path: '', name: f.name, children: f.tree }, 1, false))}
    </ul>
  );
}
