import { useState } from 'react';
import { useClient } from '../../app/client';
import { useJob } from '../../app/job';
import { ErrorNote } from '../../common/ErrorNote';
import { formatBytes } from '../../common/format';
import { ProgressBar } from '../../common/ProgressBar';

/** Shown until Ollama's first status arrives. */
const STARTING = { status: 'starting', completed: null, total: null };

/** Downloads a model through Ollama, with progress and Cancel. */
export function PullBox({ onPulled }: { onPulled: () => void }) {
  const client = useClient();
  const [model, setModel] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const job = useJob('pull', {
    onDone: ({ result, error }) => {
      if (!error) setDone(`${result?.model ?? model.trim()} is ready.`);
      onPulled();
    },
  });
  const following = job.running && job.jobId !== null;
  const pull = job.progress ?? STARTING;

  const start = () => {
    setDone(null);
    void job.start(() => client.pullModel({ model: model.trim() }));
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
          if (model.trim() && !job.running) start();
        }}
      >
        <label htmlFor="pull-model">Model name</label>
        <input id="pull-model" type="text" value={model} onChange={(e) => setModel(e.target.value)} placeholder="e.g. embeddinggemma" spellCheck={false} />
        <button type="submit" className="button" disabled={!model.trim() || job.running}>
          Pull
        </button>
        {following && (
          <button type="button" className="button" onClick={job.cancel}>
            Cancel
          </button>
        )}
      </form>
      {following && (
        <div className="pull-progress">
          <ProgressBar label={`Downloading ${model}`} value={pull.completed ?? 0} max={pull.total ?? 0} indeterminate={!pull.total} />
          <p className="muted small">
            {pull.status}
            {pull.total ? ` · ${formatBytes(pull.completed ?? 0)} of ${formatBytes(pull.total)}` : ''}
          </p>
        </div>
      )}
      {done && <p role="status">{done}</p>}
      {job.error && <ErrorNote error={job.error} />}
    </section>
  );
}
