import { formatDuration, formatNumber, plural } from '../../common/format';
import type { ImportReport } from '../../common/types';
import { DOCUMENT_TYPE_LABELS } from '../../../../shared/contract';
import { failReason } from '../../common/words';
import { groupSkipped } from './skip-groups';

/** What an import did; what it left out, grouped by reason and kind, with each list a click away. */
export function ImportSummary({ report }: { report: ImportReport }) {
  const d = report.documents;
  const types = (Object.entries(report.indexedByType) as Array<[keyof typeof DOCUMENT_TYPE_LABELS, number]>).filter(([, n]) => n > 0);
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
          <strong data-fact="chunks">{formatNumber(report.chunks)}</strong> {report.chunks === 1 ? 'chunk' : 'chunks'} written
        </li>
      </ul>
      {types.length > 0 && (
        <p className="muted small" data-testid="import-types">
          In the index now: {types.map(([t, n]) => `${formatNumber(n)} ${DOCUMENT_TYPE_LABELS[t]}`).join(', ')}
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
      {report.warnings.map((w) => (
        // After the documents were saved: the import succeeded, and this still wants saying.
        <p key={w.message} className="warning" role="note" data-testid="import-warning">
          {w.message}
        </p>
      ))}
      {report.notices.length > 0 && (
        // Imported, so not among the failures; but what was assumed should be seen, and is one click away.
        <details className="import-notices" data-testid="import-notices">
          <summary>
            <strong>{plural(report.notices.length, 'file')} read in a guessed encoding</strong> — not UTF-8; check {report.notices.length === 1 ? 'its' : 'their'} text
          </summary>
          <ul className="file-list">
            {report.notices.map((n) => (
              <li key={n.path}>
                <span className="mono">{n.path}</span> <span className="muted">— {n.message}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {report.errors.length > 0 && (
        // Before the skipped files, under its own heading: a failure is what a person must act on.
        <>
          <h4 className="subtitle">Failed</h4>
          <details className="import-failed" open={report.errors.length <= 5}>
            <summary>
              <strong>{plural(report.errors.length, 'file')} failed</strong>
            </summary>
            <ul className="file-list">
              {report.errors.map((e) => (
                <li key={e.path}>
                  <span className="mono">{e.path}</span> — {failReason(e.code)}
                  {e.message ? <span className="muted"> ({e.message})</span> : null}
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
      {report.skipped.length > 0 && (
        <>
          <h4 className="subtitle">Skipped</h4>
          <ul className="skip-groups" data-testid="skip-groups">
            {groupSkipped(report.skipped).map((g) => (
              <li key={`${g.reason} ${g.title}`}>
                {/* The list is one click away, so a long one never pushes "Start asking" off screen. */}
                <details>
                  <summary>
                    <strong>{g.title}</strong> — {g.why}
                  </summary>
                  <ul className="file-list">
                    {g.paths.map((p) => (
                      <li key={p} className="mono">
                        {p}
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
