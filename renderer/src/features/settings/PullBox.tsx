import { useState } from 'react';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJobEvents } from '../../app/job';
import { useThrottledState } from '../../common/throttle';
import { formatBytes } from '../../common/format';
import { ErrorNote } from '../../common/ErrorNote';
import { ProgressBar } from '../../common/ProgressBar';

interface Pull {
  status: string;
  completed: number | null;
  total: number | null;
}

/** Downloads a model through Ollama, with progress and Cancel. */
export function PullBox({ onPulled }: { onPulled: () => void }) {
  const client = useClient();
  const [model, setModel] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const [pull, setPull, setPullNow] = useThrottledState<Pull | null>(null, 100);
  const [error, setError] = useState<DescribedError | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useJobEvents(jobId, (e) => {
    if (e.type === 'pull.progress') setPull({ status: e.status, completed: e.completed, total: e.total });
    if (e.type === 'pull.done') {
      setJobId(null);
      setPullNow(null);
      if (e.error) setError(describeError(e.error));
      else setDone(`${model.trim()} is ready.`);
      onPulled();
    }
  });

  const start = async () => {
    setError(null);
    setDone(null);
    try {
      const res = await client.pullModel({ model: model.trim() });
      setPullNow({ status: 'starting', completed: null, total: null });
      setJobId(res.jobId);
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <section className="card" aria-labelledby="pull-title">
      <h2 id="pull-title" className="section-title">
        Pull a model
      </h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (model.trim() && !jobId) void start();
        }}
      >
        <label htmlFor="pull-model">Model name</label>
        <input id="pull-model" type="text" value={model} onChange={(e) => setModel(e.target.value)} placeholder="e.g. embeddinggemma" spellCheck={false} />
        <button type="submit" className="button" disabled={!model.trim() || jobId !== null}>
          Pull
        </button>
        {jobId && (
          <button type="button" className="button" onClick={() => void client.cancel({ jobId }).catch(() => {})}>
            Cancel
          </button>
        )}
      </form>
      {jobId && pull && (
        <div className="pull-progress">
          <ProgressBar label={`Downloading ${model}`} value={pull.completed ?? 0} max={pull.total ?? 0} indeterminate={!pull.total} />
          <p className="muted small">
            {pull.status}
            {pull.total ? ` · ${formatBytes(pull.completed ?? 0)} of ${formatBytes(pull.total)}` : ''}
          </p>
        </div>
      )}
      {done && <p role="status">{done}</p>}
      {error && <ErrorNote error={error} />}
    </section>
  );
}
