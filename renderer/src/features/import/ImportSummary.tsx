import { formatDuration, formatNumber } from '../../common/format';
import type { ImportReport } from '../../common/types';
import { DOC_TYPES, failReason, skipReason } from '../../common/words';

/** What an import did, file by file where something was left out. */
export function ImportSummary({ report }: { report: ImportReport }) {
  const d = report.documents;
  const types = (Object.entries(report.indexedByType) as Array<[keyof typeof DOC_TYPES, number]>).filter(([, n]) => n > 0);
  const counts: Array<[string, number]> = [
    ['added', d.added],
    ['updated', d.updated],
    ['unchanged', d.unchanged],
    ['moved', d.moved],
    ['deleted', d.deleted],
    ['skipped', d.skipped],
    ['failed', d.failed],
  ];
  return (
    <section className="import-summary" data-testid="import-summary" aria-label="Import summary">
      <h3 className="section-title">{report.cancelled ? 'Import cancelled' : 'Import finished'}</h3>
      <p className="muted small">
        {report.collection.root} · {formatDuration(report.ms)}
      </p>
      <ul className="counts">
        {counts.map(([label, n]) => (
          <li key={label} className={n > 0 ? '' : 'muted'}>
            <strong data-fact={label}>{formatNumber(n)}</strong> {label}
          </li>
        ))}
        <li>
          <strong data-fact="chunks">{formatNumber(report.chunks)}</strong> chunks
        </li>
      </ul>
      {types.length > 0 && (
        <p className="muted small" data-testid="import-types">
          In the index now: {types.map(([t, n]) => `${formatNumber(n)} ${DOC_TYPES[t]}`).join(', ')}
        </p>
      )}
      {report.embedding.status === 'unavailable' && (
        <p className="warning" role="note">
          Embedding was not available ({report.embedding.model}
          {report.embedding.error ? `: ${report.embedding.error.message}` : ''}). The notes are searchable by keywords now; re-embed from Settings once Ollama
          runs.
        </p>
      )}
      {report.embedding.status === 'off' && <p className="muted">Embedding was turned off for this import; keyword search works.</p>}
      {report.skipped.length > 0 && (
        <>
          <h4 className="subtitle">Skipped</h4>
          <ul className="file-list">
            {report.skipped.map((s) => (
              <li key={s.path}>
                <span className="mono">{s.path}</span> — {skipReason(s.reason)}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.errors.length > 0 && (
        <>
          <h4 className="subtitle">Failed</h4>
          <ul className="file-list">
            {report.errors.map((e) => (
              <li key={e.path}>
                <span className="mono">{e.path}</span> — {failReason(e.code)}
                {e.message ? <span className="muted"> ({e.message})</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
