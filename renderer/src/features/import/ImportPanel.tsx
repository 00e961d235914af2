import { useState } from 'react';
import { useClient } from '../../app/client';
import { useDesktop } from '../../common/desktop';
import { useNow } from '../../common/throttle';
import type { ImportJob } from './import-job';
import { ErrorNote } from '../../common/ErrorNote';
import { ImportProgress } from './ImportProgress';
import { ImportSummary } from './ImportSummary';

interface ImportPanelProps {
  job: ImportJob;
  /** Show the path field (hidden when the panel only follows a job). */
  withForm?: boolean;
  autoFocus?: boolean;
}

/** A folder path to import (browser mode types it), then the job's progress and summary. */
export function ImportPanel({ job, withForm = true, autoFocus = false }: ImportPanelProps) {
  const [path, setPath] = useState('');
  const client = useClient();
  const desktop = useDesktop();
  const choose = async () => {
    const picked = await client.chooseFolder({}).catch(() => null);
    if (picked?.path) {
      setPath(picked.path);
      void job.start(picked.path);
    }
  };
  const now = useNow(job.running, 1000);
  const elapsed = job.startedAt ? (job.finishedAt ?? Math.max(now, job.startedAt)) - job.startedAt : 0;
  return (
    <div className="import-panel">
      {withForm && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (path.trim() && !job.running) void job.start(path.trim());
          }}
        >
          <label htmlFor="import-path">Folder to import</label>
          <input
            id="import-path"
            data-testid="import-path"
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/you/notes"
            autoFocus={autoFocus}
            spellCheck={false}
            autoComplete="off"
          />
          {desktop && (
            <button type="button" className="button" onClick={() => void choose()} disabled={job.running}>
              Choose…
            </button>
          )}
          <button type="submit" className="button button--primary" data-testid="import-start" disabled={job.running || !path.trim()}>
            Import
          </button>
        </form>
      )}
      {job.error && <ErrorNote error={job.error} />}
      {job.running && <ImportProgress progress={job.progress} elapsedMs={elapsed} onCancel={job.cancel} />}
      {job.report && <ImportSummary report={job.report} />}
    </div>
  );
}
