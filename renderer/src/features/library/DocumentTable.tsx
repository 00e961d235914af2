import { useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { messageFor } from '../../api/messages';
import { formatDate, formatNumber } from '../../common/format';
import { DOCUMENT_TYPE_LABELS } from '../../../../shared/contract';
import { DOC_STATUS } from '../../common/words';

type Collection = Output<'library'>['collections'][number];
type Doc = Collection['documents'][number];

/** Failed or skipped, or carrying a reason: what a person opens the Library to find. */
const hasProblem = (d: Doc) => d.status === 'error' || d.status === 'skipped' || d.statusCode !== null || d.statusMessage !== null;

/**
 * A collection's documents with their type, status, chunk count, import time and any error; a change
 * waiting to be imported shows as queued, and a new file not yet imported as a row of its own. When
 * some files have a problem, a switch shows only those: one failed file among hundreds in path order
 * is otherwise found only by scrolling.
 */
export function DocumentTable({ documents, pending = [], waiting = pending.length }: { documents: Doc[]; pending?: Collection['pending']; waiting?: number }) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const queued = new Map(pending.map((p) => [p.relPath, p.queuedAt]));
  const known = new Set(documents.map((d) => d.relPath));
  const problems = documents.filter(hasProblem);
  const filtering = onlyProblems && problems.length > 0;
  // A new file Quire will read: `pending` holds only changes that are rows (a document changed, a
  // file an import reads; db/import-queue.ts waitingChanges), the same the watch sentence counts.
  const arriving = filtering ? [] : pending.filter((p) => !known.has(p.relPath));
  const shown = filtering ? problems : documents;
  if (documents.length === 0 && arriving.length === 0) return <p className="muted">No documents in this folder yet.</p>;
  return (
    <div className="table-wrap">
      {problems.length > 0 && problems.length < documents.length && (
        <label className="row small document-table__filter">
          <input type="checkbox" checked={onlyProblems} onChange={(e) => setOnlyProblems(e.target.checked)} />
          Only files with a problem ({formatNumber(problems.length)})
        </label>
      )}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Chunks</th>
            <th scope="col">Last imported</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {arriving.map((p) => (
            <tr key={`pending:${p.relPath}`}>
              <td>
                <span className="mono">{p.relPath}</span>
              </td>
              <td />
              <td>
                <span className="badge badge--queued">queued</span>
              </td>
              <td className="num" />
              <td className="muted">changed {formatDate(p.queuedAt)}</td>
              <td />
            </tr>
          ))}
          {shown.map((d) => (
            <tr key={d.id}>
              <td>
                <span className="mono">{d.relPath}</span>
                {d.title && d.title !== d.relPath ? <span className="muted"> · {d.title}</span> : null}
              </td>
              <td>{d.type ? <span className="badge badge--type">{DOCUMENT_TYPE_LABELS[d.type]}</span> : null}</td>
              <td>
                <span className={`badge badge--${d.status}`}>{DOC_STATUS[d.status] ?? d.status}</span>
                {queued.has(d.relPath) && (
                  <>
                    {' '}
                    <span className="badge badge--queued" title={`Changed ${formatDate(queued.get(d.relPath)!)}; waiting to be imported again`}>
                      changed
                    </span>
                  </>
                )}
              </td>
              <td className="num">{formatNumber(d.chunks)}</td>
              <td>{formatDate(d.ingestedAt)}</td>
              <td>{d.statusMessage ?? (d.statusCode ? (messageFor(d.statusCode) ?? d.statusCode) : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* The engine sends the first 200 changes; the watch sentence counts them all, so say where the rest are. */}
      {waiting > pending.length && (
        <p className="muted small" data-testid="more-waiting">
          {waiting - pending.length === 1 ? '1 more change' : `${formatNumber(waiting - pending.length)} more changes`} waiting, not listed here.
        </p>
      )}
    </div>
  );
}
