import { useCallback, useState } from 'react';
import { useReloadOn } from '../../app/reload';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ErrorNote } from '../../common/ErrorNote';
import { formatBytes, formatNumber, plural } from '../../common/format';

type Store = Output<'vectorStores'>['stores'][number];

/** What a stored model's vectors are for, in a few words. */
export function storeRole(s: Store): string {
  if (s.active) return 'searches use these';
  if (s.chosen) return s.documentsMissing > 0 ? `being built · ${plural(s.documentsMissing, 'document')} to go` : 'complete';
  return s.documentsMissing > 0 ? `incomplete · ${plural(s.documentsMissing, 'document')} ${s.documentsMissing === 1 ? 'lacks' : 'lack'} them` : 'kept: switching back is instant';
}

/**
 * Every embedding model with vectors stored. Earlier models are kept after a switch so that
 * switching back is instant; a person deletes them here to reclaim the space.
 */
export function VectorStores() {
  const client = useClient();
  const [stores, setStores] = useState<Store[] | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [confirming, setConfirming] = useState<Store | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      client.vectorStores({}).then(
        (r) => setStores(r.stores),
        (e: unknown) => setError(describeError(e)),
      ),
    [client],
  );
  useReloadOn(load, (e) => e.type === 'library.changed' || (e.type === 'job.done' && e.kind === 'embed'));

  const drop = async (s: Store) => {
    setBusy(true);
    setError(null);
    try {
      await client.dropVectorStore({ modelId: s.modelId });
      load();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  return (
    <section className="card" aria-labelledby="stores-title">
      <h2 id="stores-title" className="section-title">
        Stored vectors
      </h2>
      {error && <ErrorNote error={error} />}
      {stores && stores.length === 0 && <p className="muted">No vectors yet: documents are found by keywords until an embedding model has embedded them.</p>}
      {stores && stores.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Embedding model</th>
                <th scope="col">Passages</th>
                <th scope="col">Size</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {stores.map((s) => (
                <tr key={s.modelId}>
                  <td>
                    <span className="mono">{s.name}</span> <span className="muted small mono">{s.digest.slice(0, 12)}</span>{' '}
                    <span className="muted small">· {s.dimension} dimensions</span>
                  </td>
                  <td className="num">{formatNumber(s.vectors)}</td>
                  <td className="num">{formatBytes(s.bytes)}</td>
                  <td>{storeRole(s)}</td>
                  <td>
                    {!s.active && !s.chosen && (
                      <button type="button" className="button button--danger button--small" onClick={() => setConfirming(s)} aria-label={`Delete the vectors of ${s.name}`}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirming && (
        <ConfirmDialog title={`Delete the vectors of ${confirming.name}?`} confirmLabel="Delete vectors" onConfirm={() => void drop(confirming)} onCancel={() => setConfirming(null)} busy={busy}>
          <p>
            This frees about {formatBytes(confirming.bytes)}. Switching back to {confirming.name} later means embedding {plural(confirming.vectors, 'passage')}{' '}
            again. Your documents and the model in Ollama are untouched.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
