import type { Output } from '../../../../shared/contract';
import { messageFor } from '../../api/messages';
import { formatDate, formatNumber } from '../../common/format';
import { DOC_STATUS } from '../../common/words';

type Doc = Output<'library'>['collections'][number]['documents'][number];

/** A collection's documents with their status, chunk count, import time and any error. */
export function DocumentTable({ documents }: { documents: Doc[] }) {
  if (documents.length === 0) return <p className="muted">No documents in this folder yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Status</th>
            <th scope="col">Chunks</th>
            <th scope="col">Last imported</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {documents.map((d) => (
            <tr key={d.id}>
              <td>
                <span className="mono">{d.relPath}</span>
                {d.title && d.title !== d.relPath ? <span className="muted"> · {d.title}</span> : null}
              </td>
              <td>
                <span className={`badge badge--${d.status}`}>{DOC_STATUS[d.status] ?? d.status}</span>
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
