import { useState } from 'react';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';

/** A folder's name, which questions can be limited by, renamed in place. */
export function CollectionName({ collectionId, name }: { collectionId: string; name: string }) {
  const client = useClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<DescribedError | null>(null);

  const save = async () => {
    setError(null);
    try {
      await client.renameCollection({ collectionId, name: draft });
      setEditing(false);
    } catch (e) {
      setError(describeError(e));
    }
  };

  if (!editing) {
    return (
      <p className="collection-name">
        <strong>{name}</strong>{' '}
        <button
          type="button"
          className="button button--quiet button--small"
          onClick={() => {
            setDraft(name);
            setEditing(true);
          }}
          aria-label={`Rename ${name}`}
        >
          Rename
        </button>
      </p>
    );
  }
  return (
    <form
      className="collection-name row"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input type="text" aria-label="Folder name" value={draft} maxLength={100} onChange={(e) => setDraft(e.target.value)} autoFocus />
      <button type="submit" className="button button--small" disabled={draft.trim() === ''}>
        Save
      </button>
      <button type="button" className="button button--quiet button--small" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {error && <ErrorNote error={error} />}
    </form>
  );
}
