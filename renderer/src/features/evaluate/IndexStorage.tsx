import { useCallback, useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { formatBytes } from '../../common/format';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ErrorNote } from '../../common/ErrorNote';

interface IndexStorageProps {
  /** Changes when a run ends, so the size is read again. */
  refreshKey: number;
  running: boolean;
}

type Storage = Output<'evalStorage'>;

/** The disk the evaluation indexes take, and a way to give it back (they are rebuilt when needed). */
export function IndexStorage({ refreshKey, running }: IndexStorageProps) {
  const client = useClient();
  const [storage, setStorage] = useState<Storage | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    client.evalStorage({}).then(setStorage, (e: unknown) => setError(describeError(e)));
  }, [client]);
  useEffect(() => load(), [load, refreshKey]);

  const clear = async () => {
    setBusy(true);
    try {
      await client.clearEvalIndexes({});
      setError(null);
      load();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  if (!storage) return error ? <ErrorNote error={error} /> : null;
  return (
    <section className="card eval-storage" data-testid="eval-storage" aria-labelledby="eval-storage-title">
      <h2 id="eval-storage-title" className="section-title">
        Evaluation indexes
      </h2>
      {error && <ErrorNote error={error} />}
      <p className="muted small" data-testid="eval-storage-size">
        {storage.indexes === 0
          ? 'None kept. Each run builds one per embedding model and chunker, and keeps it for the next run.'
          : `${storage.indexes} kept, ${formatBytes(storage.bytes)}. Reused by the next run over the same folder; removing a folder from the library removes its indexes.`}
      </p>
      {storage.indexes > 0 && (
        <button
          type="button"
          className="button button--quiet small"
          disabled={running || busy}
          title={running ? 'An evaluation is using them.' : undefined}
          onClick={() => setConfirming(true)}
          data-testid="eval-storage-clear"
        >
          Remove all
        </button>
      )}
      {confirming && (
        <ConfirmDialog title="Remove the evaluation indexes?" confirmLabel="Remove indexes" busy={busy} onCancel={() => setConfirming(false)} onConfirm={() => void clear()}>
          <p>
            {storage.indexes} indexes ({formatBytes(storage.bytes)}) are removed. Reports, saved questions and your library stay; the next evaluation rebuilds the indexes it needs.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
