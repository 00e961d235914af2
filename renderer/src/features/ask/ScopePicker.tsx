import { useCallback, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { useClient } from '../../app/client';
import { useReloadOn } from '../../app/reload';
import { getScope, setScope, useScope } from './scope';

type Folder = Pick<Output<'library'>['collections'][number], 'id' | 'name' | 'root'>;

/** Which folders a question is asked of: all (the default) or the ones ticked. */
export function ScopePicker() {
  const client = useClient();
  const scope = useScope();
  const [folders, setFolders] = useState<Folder[]>([]);

  const load = useCallback(
    () =>
      client.library({}).then(
        (l) => {
          const list = l.collections.map((c) => ({ id: c.id, name: c.name, root: c.root }));
          setFolders(list);
          // A folder that left the library leaves the scope too. Read, not depended on: ticking a
          // folder must not reload the library.
          const now = getScope();
          if (now.some((id) => !list.some((f) => f.id === id))) setScope(now.filter((id) => list.some((f) => f.id === id)));
        },
        () => setFolders([]),
      ),
    [client],
  );
  useReloadOn(load, (e) => e.type === 'library.changed');

  if (folders.length < 2) return null;
  const label = scope.length === 0 ? 'All folders' : folders.filter((f) => scope.includes(f.id)).map((f) => f.name).join(', ');
  const toggle = (id: string) => setScope(scope.includes(id) ? scope.filter((s) => s !== id) : [...scope, id]);
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
        {folders.map((f) => (
          <label key={f.id} title={f.root}>
            <input type="checkbox" checked={scope.includes(f.id)} onChange={() => toggle(f.id)} /> {f.name}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
