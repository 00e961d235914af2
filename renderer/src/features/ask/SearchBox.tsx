import { useState } from 'react';
import { scopeInput } from './scope';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { formatPlace } from '../../common/format';
import { formatWhere } from '../../../../shared/pages';
import { ErrorNote } from '../../common/ErrorNote';

type Mode = 'hybrid' | 'lexical' | 'dense';

/** Passage search without the model: shows which mode ran and why it fell back, if it did. */
export function SearchBox() {
  const client = useClient();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<Mode>('hybrid');
  const [busy, setBusy] = useState(false);
  const [res, setRes] = useState<Output<'search'> | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  const run = async () => {
    if (!query.trim()) return;
    setBusy(true);
    setError(null);
    try {
      setRes(await client.search({ query: query.trim(), mode, k: 10, ...scopeInput() }));
    } catch (e) {
      setRes(null);
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="search-box" aria-labelledby="search-title">
      <h2 id="search-title" className="section-title">
        Search passages
      </h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label className="visually-hidden" htmlFor="search-query">
          Search words
        </label>
        <input id="search-query" data-testid="search-box" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Words to find" />
        <label className="visually-hidden" htmlFor="search-mode">
          Search mode
        </label>
        <select id="search-mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
          <option value="hybrid">Keywords + meaning</option>
          <option value="lexical">Keywords only</option>
          <option value="dense">Meaning only</option>
        </select>
        <button type="submit" className="button" disabled={busy || !query.trim()}>
          Search
        </button>
      </form>
      {error && <ErrorNote error={error} />}
      {res && (
        <div className="search-results" aria-live="polite">
          <p className="muted small" data-search-mode={res.mode}>
            Mode used: {res.mode}
            {res.fallback ? ` (asked for ${res.fallback.requested}: ${res.fallback.reason})` : ''} · {res.results.length} {res.results.length === 1 ? "result" : "results"} · {Math.round(res.ms)} ms
          </p>
          <ol className="search-results__list">
            {res.results.map((r) => (
              <li key={r.chunkId}>
                <p>
                  <span className="mono">{formatWhere(r.path, r.lines, r.pages, '–')}</span>{' '}
                  <span className="muted">{r.heading}</span>
                  <span className="visually-hidden"> {formatPlace(r.lines, r.pages)}</span>
                </p>
                <p className="search-results__text">{snippet(r)}</p>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

/** The matched chunk, not the neighbour the passage opens with; the whole passage is what an answer is sent. */
function snippet(r: Output<'search'>['results'][number]): string {
  const text = r.text.slice(r.hit.start, r.hit.end);
  return text.length > 280 ? `${text.slice(0, 280)}…` : text;
}
