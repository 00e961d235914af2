import { useState } from 'react';
import { useClient } from '../../app/client';
import { useDesktop } from '../../common/desktop';
import { useNow } from '../../common/throttle';
import type { ImportJob } from './import-job';
import { ErrorNote } from '../../common/ErrorNote';
import { ImportProgress } from './ImportProgress';
import { ImportSummary } from './ImportSummary';
import { useFolderCompletions } from './folder-completions';
import { droppedPath } from '../../api/dropped-path';

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
  const completions = useFolderCompletions(path);
  const [dropNote, setDropNote] = useState<string | null>(null);
  // The desktop app is told where a dropped folder is, and imports it. A browser tells a page its
  // name only: say so, and keep the name to type after (the field completes paths as they are typed).
  const onDrop = (e: React.DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0] ?? e.dataTransfer.items[0]?.getAsFile() ?? null;
    const where = droppedPath(file);
    if (where) {
      setPath(where);
      setDropNote(null);
      if (!job.running) void job.start(where);
      return;
    }
    const name = file?.name ?? null;
    setDropNote(
      name
        ? `Your browser does not tell Quire where “${name}” is on this computer. Type or paste its path; the field suggests folders as you type.`
        : 'Your browser does not tell Quire where a dropped folder is. Type or paste its path; the field suggests folders as you type.',
    );
  };
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
          data-testid="import-form"
          onDragOver={(e) => e.preventDefault()}
          onDrop={onDrop}
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
            onChange={(e) => {
              setPath(e.target.value);
              setDropNote(null);
              // The refusal names the path given; under an edited one it would mislead.
              if (job.error && !job.running) job.reset();
            }}
            list="import-path-completions"
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
          <datalist id="import-path-completions" data-testid="import-path-completions">
            {completions.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
          <button type="submit" className="button button--primary" data-testid="import-start" disabled={job.running || !path.trim()}>
            Import
          </button>
        </form>
      )}
      {dropNote && (
        <p className="muted small" role="status" data-testid="import-drop-note">
          {dropNote}
        </p>
      )}
      {job.error && <ErrorNote error={job.error} />}
      {job.running && <ImportProgress progress={job.progress} elapsedMs={elapsed} onCancel={job.cancel} />}
      {job.report && <ImportSummary report={job.report} />}
    </div>
  );
}
