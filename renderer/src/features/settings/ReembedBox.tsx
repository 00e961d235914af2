import { useClient } from '../../app/client';
import { useJob } from '../../app/job';
import { ErrorNote } from '../../common/ErrorNote';
import { formatNumber, plural } from '../../common/format';
import { ProgressBar } from '../../common/ProgressBar';

/** Offered after the embedding model changes: embeds every document that lacks vectors for it. */
export function ReembedBox({ model }: { model: string }) {
  const client = useClient();
  const job = useJob('embed');
  const following = job.running && job.jobId !== null;
  const start = () => void job.start(() => client.embedMissing({}));
  const result = !job.running && job.result && !job.error ? `Done: ${plural(job.result.chunks, 'passage')} embedded with ${model}.` : null;

  return (
    <div className="notice" role="region" aria-label="Re-embedding">
      <p>
        The embedding model is now <span className="mono">{model}</span>. Meaning search switches to it once every document has its vectors; until then
        it keeps using the previous model’s. Nothing is re-read from disk.
      </p>
      <div className="row">
        <button type="button" className="button button--primary" onClick={start} disabled={job.running}>
          Re-embed now
        </button>
        {following && (
          <button type="button" className="button" onClick={job.cancel}>
            Cancel
          </button>
        )}
      </div>
      {following && (
        <>
          <ProgressBar label="Re-embedding" value={0} max={0} indeterminate />
          <p className="muted small">{plural(job.progress?.documents ?? 0, 'document')} embedded so far</p>
        </>
      )}
      {result && <p role="status">{result}</p>}
      {job.error && <ErrorNote error={job.error} />}
    </div>
  );
}
