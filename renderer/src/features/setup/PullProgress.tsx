import type { JobProgress } from '../../../../shared/contract';
import { formatBytes } from '../../common/format';
import { ProgressBar } from '../../common/ProgressBar';

interface PullProgressProps {
  name: string;
  /** Its place among the downloads asked for, when more than one. */
  n: number;
  of: number;
  progress: JobProgress<'pull'> | null;
  onCancel: () => void;
}

/** Ollama's words for the phases of a pull, as a person reads them. */
function phase(status: string | undefined): string {
  if (!status || status === 'starting' || status === 'pulling manifest') return 'Starting…';
  if (status.startsWith('pulling')) return 'Downloading';
  if (status.startsWith('verifying')) return 'Checking the download…';
  if (status === 'writing manifest' || status === 'success') return 'Finishing…';
  return status;
}

/** One download: the bar, bytes and percentage, Ollama's phase, and Cancel. */
export function PullProgress({ name, n, of, progress, onCancel }: PullProgressProps) {
  const done = progress?.completed ?? 0;
  const total = progress?.total ?? 0;
  const pct = total > 0 ? Math.floor((done / total) * 100) : null;
  return (
    <div className="pull-progress setup-pull" data-testid="pull-progress">
      <p className="setup-pull__head">
        <strong>
          Downloading <span className="mono">{name}</span>
        </strong>
        {of > 1 && <span className="muted"> ({n} of {of})</span>}
      </p>
      <ProgressBar label={`Downloading ${name}`} value={done} max={total} indeterminate={pct === null} />
      <div className="row setup-pull__foot">
        <span className="num" data-testid="pull-bytes">
          {pct === null ? phase(progress?.status) : `${formatBytes(done)} of ${formatBytes(total)} · ${pct}%`}
        </span>
        {pct !== null && phase(progress?.status) !== 'Downloading' && <span className="muted small">{phase(progress?.status)}</span>}
        <button type="button" className="button button--small setup-pull__cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
