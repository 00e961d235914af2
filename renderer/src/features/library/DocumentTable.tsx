import type { Output } from '../../../../shared/contract';
import { messageFor } from '../../api/messages';
import { formatDate, formatNumber } from '../../common/format';
import { DOCUMENT_TYPE_LABELS } from '../../../../shared/contract';
import { DOC_STATUS } from '../../common/words';

type Collection = Output<'library'>['collections'][number];
type Doc = Collection['documents'][number];

/**
 * A collection's documents with their type, status, chunk count, import time and any error; a change
 * waiting to be imported shows as queued, and a new file not yet imported as a row of its own.
 */
export function DocumentTable({ documents, pending = [] }: { documents: Doc[]; pending?: Collection['pending'] }) {
  const queued = new Map(pending.map((p) => [p.relPath, p.queuedAt]));
  const known = new Set(documents.map((d) => d.relPath));
  const arriving = pending.filter((p) => !known.has(p.relPath));
  if (documents.length === 0 && arriving.length === 0) return <p className="muted">No documents in this folder yet.</p>;
  return (
    <div className="table-wrap">
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
          {documents.map((d) => (
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
    </div>
  );
}
