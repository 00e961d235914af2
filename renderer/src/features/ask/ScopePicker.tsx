import { useCallback, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { scopeLabel } from '../../../../shared/scope-path';
import { useClient } from '../../app/client';
import { useReloadOn } from '../../app/reload';
import { getScope, sameScopePlace, setScope, useScope, type ScopePlace } from './scope';

type Collection = Output<'library'>['collections'][number];
interface Folder {
  id: string;
  name: string;
  root: string;
  /** Its top-level folders that hold documents, by name. */
  subfolders: string[];
}

/** A collection's top-level folders holding at least one document, in order. */
function topFolders(c: Pick<Collection, 'documents'>): string[] {
  const names = new Set<string>();
  for (const d of c.documents) {
    const slash = d.relPath.indexOf('/');
    if (slash > 0) names.add(d.relPath.slice(0, slash));
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** Which folders a question is asked of: all (the default), or the folders and their subfolders ticked. */
export function ScopePicker() {
  const client = useClient();
  const scope = useScope();
  const [folders, setFolders] = useState<Folder[]>([]);

  const load = useCallback(
    () =>
      client.library({}).then(
        (l) => {
          const list = l.collections.map((c) => ({ id: c.id, name: c.name, root: c.root, subfolders: topFolders(c) }));
          setFolders(list);
          // A folder that left the library (or a subfolder left with no document) leaves the scope
          // too. Read, not depended on: ticking a folder must not reload the library.
          const there = (p: ScopePlace) => list.some((f) => f.id === p.collectionId && (p.path === '' || f.subfolders.includes(p.path)));
          const now = getScope();
          if (now.some((p) => !there(p))) setScope(now.filter(there));
        },
        () => setFolders([]),
      ),
    [client],
  );
  useReloadOn(load, (e) => e.type === 'library.changed');

  // Shown when there is a choice: two folders, or one with folders inside it.
  const choices = folders.reduce((n, f) => n + 1 + f.subfolders.length, 0);
  if (folders.length === 0 || choices < 2) return null;
  const ticked = (p: ScopePlace) => scope.some((s) => sameScopePlace(s, p));
  const label =
    scope.length === 0
      ? 'All folders'
      : scope
          .map((p) => {
            const f = folders.find((x) => x.id === p.collectionId);
            return f ? scopeLabel({ name: f.name, path: p.path }) : null;
          })
          .filter((x) => x !== null)
          .join(', ');
  // setScope drops the subfolders a whole folder ticked now covers.
  const toggle = (p: ScopePlace) => setScope(ticked(p) ? scope.filter((s) => !sameScopePlace(s, p)) : [...scope, p]);
  return (
    <details className="scope" data-testid="scope-picker">
      <summary>
        Ask of: <strong>{label}</strong>
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
              {f.subfolders.length > 0 && (
                <div className="scope__subfolders" role="group" aria-label={`Folders inside ${f.name}`}>
                  {f.subfolders.map((sub) => (
                    // A ticked whole folder already holds its subfolders: shown ticked, not separately choosable.
                    <label key={sub} title={`${f.root}/${sub}`}>
                      <input
                        type="checkbox"
                        aria-label={scopeLabel({ name: f.name, path: sub })}
                        checked={whole || ticked({ collectionId: f.id, path: sub })}
                        disabled={whole}
                        onChange={() => toggle({ collectionId: f.id, path: sub })}
                      />{' '}
                      {sub}/
                    </label>
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}
