import { formatBytes, formatDuration, formatNumber, remainingMs } from '../../common/format';
import type { ImportProgress as Progress } from '../../common/types';
import { ProgressBar } from '../../common/ProgressBar';

const PHASES: Record<Progress['phase'], string> = {
  waiting: 'Waiting for another import into this library to finish…',
  scanning: 'Looking for files…',
  indexing: 'Reading and indexing',
  embedding: 'Embedding passages',
  cleaning: 'Removing deleted files',
  done: 'Finishing',
};

interface ImportProgressProps {
  progress: Progress | null;
  elapsedMs: number;
  onCancel: () => void;
}

/** A running import: files, chunks, the current file, time spent and (from bytes) time left. */
export function ImportProgress({ progress, elapsedMs, onCancel }: ImportProgressProps) {
  const p = progress;
  const left = p ? remainingMs(elapsedMs, p.bytesDone, p.bytesTotal) : null;
  return (
    <section className="import-progress" data-testid="import-progress" aria-label="Import progress">
      <p className="import-progress__phase">{p ? PHASES[p.phase] : 'Starting…'}</p>
      <ProgressBar label="Files imported" value={p?.filesDone ?? 0} max={p?.filesTotal ?? 0} indeterminate={!p || p.filesTotal === 0} />
      <dl className="facts">
        <div>
          <dt>Files</dt>
          <dd data-fact="files">
            {formatNumber(p?.filesDone ?? 0)} of {formatNumber(p?.filesTotal ?? 0)}
          </dd>
        </div>
        <div>
          <dt>Chunks</dt>
          <dd data-fact="chunks">{formatNumber(p?.chunks ?? 0)}</dd>
        </div>
        <div>
          <dt>Read</dt>
          <dd data-fact="bytes">
            {formatBytes(p?.bytesDone ?? 0)} of {formatBytes(p?.bytesTotal ?? 0)}
          </dd>
        </div>
        <div>
          <dt>Elapsed</dt>
          <dd data-fact="elapsed">{formatDuration(elapsedMs)}</dd>
        </div>
        <div>
          <dt>Remaining</dt>
          <dd data-fact="remaining">{left === null ? 'estimating…' : `about ${formatDuration(left)}`}</dd>
        </div>
      </dl>
      <p className="import-progress__file mono small" aria-live="off">
        {p?.currentFile ? `Now: ${p.currentFile}` : '\u00a0'}
      </p>
      <button type="button" className="button" onClick={onCancel}>
        Cancel import
      </button>
    </section>
  );
}
