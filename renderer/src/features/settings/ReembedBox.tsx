import { useState } from 'react';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJobEvents } from '../../app/job';
import { formatNumber } from '../../common/format';
import { ErrorNote } from '../../common/ErrorNote';
import { ProgressBar } from '../../common/ProgressBar';

/** Offered after the embedding model changes: embeds every document that lacks vectors for it. */
export function ReembedBox({ model }: { model: string }) {
  const client = useClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const [docs, setDocs] = useState(0);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  useJobEvents(jobId, (e) => {
    if (e.type === 'embed.progress') setDocs(e.documents);
    if (e.type === 'embed.done') {
      setJobId(null);
      if (e.error) setError(describeError(e.error));
      else setResult(`Done: ${formatNumber(e.chunks)} passages embedded with ${model}.`);
    }
  });

  const start = async () => {
    setError(null);
    setResult(null);
    setDocs(0);
    try {
      setJobId((await client.embedMissing({})).jobId);
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <div className="notice" role="region" aria-label="Re-embedding">
      <p>
        The embedding model is now <span className="mono">{model}</span>. Documents embedded with the previous model need re-embedding before meaning search
        uses them; until then search falls back to keywords. Nothing is re-read from disk.
      </p>
      <div className="row">
        <button type="button" className="button button--primary" onClick={() => void start()} disabled={jobId !== null}>
          Re-embed now
        </button>
        {jobId && (
          <button type="button" className="button" onClick={() => void client.cancel({ jobId }).catch(() => {})}>
            Cancel
          </button>
        )}
      </div>
      {jobId && (
        <>
          <ProgressBar label="Re-embedding" value={0} max={0} indeterminate />
          <p className="muted small">{formatNumber(docs)} documents embedded so far</p>
        </>
      )}
      {result && <p role="status">{result}</p>}
      {error && <ErrorNote error={error} />}
    </div>
  );
}
