import { useState } from 'react';
import { formatPlace } from '../../common/format';
import type { Candidate } from '../../common/types';

interface RetrievalTraceProps {
  candidates: Candidate[];
  mode: string | null;
  note: string | null;
}

const DROPPED: Record<NonNullable<Candidate['dropped']>, string> = {
  budget: 'dropped (budget)',
  distance: 'dropped (distance)',
  k: 'dropped (k)',
};

/** Which passages retrieval found, how each list ranked them, and which were sent to the model. Collapsed by default. */
export function RetrievalTrace({ candidates, mode, note }: RetrievalTraceProps) {
  const [open, setOpen] = useState(false);
  const sent = candidates.filter((c) => c.sent).length;
  return (
    <details className="trace" data-testid="retrieval-trace" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Retrieval trace{mode ? ` · ${mode}` : ''} · {candidates.length} candidates, {sent} sent
      </summary>
      {/* Rendered only while open: long traces cost nothing while collapsed. */}
      {open && note && <p className="muted">{note}</p>}
      {open && candidates.length === 0 && <p className="muted">No candidates yet.</p>}
      {open && candidates.length > 0 && <TraceTable candidates={candidates} />}
    </details>
  );
}

function TraceTable({ candidates }: { candidates: Candidate[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Passage</th>
            <th scope="col">Heading</th>
            <th scope="col" className="num">
              Lexical rank
            </th>
            <th scope="col" className="num">
              Dense rank
            </th>
            <th scope="col" className="num">
              Fused score
            </th>
            <th scope="col">Sent</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <tr key={c.chunkId} className={c.sent ? '' : 'row--dropped'}>
              <td>
                {c.path} <span className="muted">{formatPlace(c.lines, c.pages)}</span>
              </td>
              <td>{c.heading}</td>
              <td className="num">{c.lexicalRank ?? '—'}</td>
              <td className="num">{c.denseRank ?? '—'}</td>
              <td className="num">{c.score.toFixed(4)}</td>
              <td>{c.sent ? '✓ sent' : c.dropped ? DROPPED[c.dropped] : 'not sent'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
