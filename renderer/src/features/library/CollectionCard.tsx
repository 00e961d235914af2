import { useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useImportJob } from '../import/import-job';
import { formatDate, formatNumber, plural } from '../../common/format';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ErrorNote } from '../../common/ErrorNote';
import { ImportPanel } from '../import/ImportPanel';
import { DocumentTable } from './DocumentTable';
import { WatchControls } from './WatchControls';
import { CollectionName } from './CollectionName';
import { collectionCounts } from './collection-counts';

type Collection = Output<'library'>['collections'][number];

/** One imported folder: its documents, watching, Re-sync and Remove. */
export function CollectionCard({ collection }: { collection: Collection }) {
  const client = useClient();
  const job = useImportJob();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DescribedError | null>(null);
  // Counted as the status bar counts: a failed or skipped file is not a document in the index.
  const { indexed, failed, skipped, chunks } = collectionCounts(collection);

  const resync = async () => {
    setError(null);
    try {
      const { jobId } = await client.resync({ collectionId: collection.id });
      job.track(jobId);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await client.removeCollection({ collectionId: collection.id });
      setConfirming(false);
    } catch (e) {
      setError(describeError(e));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-label={`Folder ${collection.root}`}>
      <header className="card__head">
        <div>
          <h2 className="mono card__title">{collection.root}</h2>
          <CollectionName collectionId={collection.id} name={collection.name} />
          <p className="muted small" data-testid="collection-counts">
            {plural(indexed, 'document')}{failed > 0 ? ` · ${formatNumber(failed)} failed` : ''}
            {skipped > 0 ? ` · ${formatNumber(skipped)} skipped` : ''} · {plural(chunks, 'chunk')} · added {formatDate(collection.createdAt)}
          </p>
        </div>
        <div className="row">
          <button type="button" className="button" onClick={() => void resync()} disabled={job.running}>
            Re-sync
          </button>
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)} disabled={job.running}>
            Remove
          </button>
        </div>
      </header>
      <WatchControls collectionId={collection.id} watch={collection.watch} />
      {error && <ErrorNote error={error} />}
      {job.jobId && <ImportPanel job={job} withForm={false} />}
      <DocumentTable documents={collection.documents} pending={collection.pending} waiting={collection.watch.queued} />
      {confirming && (
        <ConfirmDialog title="Remove this folder from Quire?" confirmLabel="Remove from index" onConfirm={() => void remove()} onCancel={() => setConfirming(false)} busy={busy}>
          <p data-testid="remove-counts">
            This deletes <strong>{plural(indexed, 'document')}</strong>, {chunks === 1 ? 'its passage' : `their ${plural(chunks, 'passage')}`}, their vectors and full-text entries
            {failed + skipped > 0 ? `, and the records of ${problemFiles(failed, skipped)},` : ''} from Quire's index for{' '}
            <span className="mono">{collection.root}</span>, and with them the answers given from those passages, the questions saved for this folder and
            its evaluation reports.
          </p>
          <p>The files on disk are untouched. You can import the folder again at any time.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** "1 failed file and 2 skipped files": rows the library lists that were never documents in the index. */
function problemFiles(failed: number, skipped: number): string {
  return [failed > 0 ? plural(failed, 'failed file') : null, skipped > 0 ? plural(skipped, 'skipped file') : null].filter(Boolean).join(' and ');
}
