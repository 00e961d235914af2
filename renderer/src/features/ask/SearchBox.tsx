import { useEffect, useMemo, useRef, useState } from 'react';
import { distinctPaths } from '../../../../shared/distinct-paths';
import { scrollToTopOfPane } from '../../common/scroll-pane';
import { scopeInput } from './scope';
import { SEARCH_MODE_LABELS, SEARCH_MODES, type SearchMode } from '../../../../shared/search';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useSettings } from '../../app/client';
import { formatPlace } from '../../common/format';
import { formatWhere } from '../../../../shared/pages';
import { ErrorNote } from '../../common/ErrorNote';
import { resultTarget, snippet } from './search-result';
import { markQueryWords } from './query-marks';
import type { SourceTarget } from './SourcePanel';

/** A mode for this search alone, or none: the engine then searches as Settings say, as answers do. */
type Mode = SearchMode | 'setting';

interface SearchBoxProps {
  /** Opens a result in the source panel, as an answer's citation opens. */
  onOpenSource: (target: SourceTarget, opener: HTMLButtonElement) => void;
}

/** Passage search without the model: shows which mode ran and why it fell back, if it did. */
export function SearchBox({ onOpenSource }: SearchBoxProps) {
  const client = useClient();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<Mode>('setting');
  /** The saved search mode, to name in the default choice; null until known (or when it cannot be read). */
  const saved: SearchMode | null = useSettings().settings?.searchMode ?? null;
  const [busy, setBusy] = useState(false);
  /** The result with the query it answers (the box may have changed since), whose words it marks. */
  const [res, setRes] = useState<(Output<'search'> & { query: string }) | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const section = useRef<HTMLElement>(null);
  // The same file name in two imported folders reads alike: named with as much of its folder as tells them apart.
  const names = useMemo(() => (res ? distinctPaths(res.results) : null), [res]);
  // The results come in under the conversation, in the same pane as it: brought up to the pane's
  // top, rather than left below its fold as a sliver of two lines above the question box.
  useEffect(() => {
    if (res && section.current) scrollToTopOfPane(section.current);
  }, [res]);

  const run = async () => {
    if (!query.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const asked = query.trim();
      setRes({ ...(await client.search({ query: asked, ...(mode === 'setting' ? {} : { mode }), k: 10, ...scopeInput() })), query: asked });
    } catch (e) {
      setRes(null);
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="search-box" aria-labelledby="search-title" ref={section}>
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
          <option value="setting">{saved ? `As in Settings (${saved})` : 'As in Settings'}</option>
          {SEARCH_MODES.map((m) => (
            <option key={m} value={m}>
              {SEARCH_MODE_LABELS[m]}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={busy || !query.trim()}>
          Search
        </button>
      </form>
      {error && <ErrorNote error={error} />}
      {res && names && (
        <div className="search-results" aria-live="polite">
          <p className="muted small" data-search-mode={res.mode}>
            Mode used: {res.mode}
            {res.fallback ? ` (asked for ${res.fallback.requested}: ${res.fallback.reason})` : ''} · {res.results.length} {res.results.length === 1 ? "result" : "results"} · {Math.round(res.ms)} ms
          </p>
          <ol className="search-results__list">
            {res.results.map((r, i) => (
              <li key={r.chunkId}>
                <button
                  type="button"
                  className="search-results__open"
                  data-testid="search-result"
                  data-chunk-id={r.chunkId}
                  aria-label={`Open in the source panel: ${names[i]} ${formatPlace(r.lines, r.pages)}${r.heading ? `, ${r.heading}` : ''}`}
                  onClick={(e) => onOpenSource(resultTarget(r, i + 1), e.currentTarget)}
                >
                  <span className="mono">{formatWhere(names[i]!, r.lines, r.pages, '–')}</span> {r.heading && <span className="muted">{r.heading}</span>}
                </button>
                <p className="search-results__text">
                  {markQueryWords(snippet(r), res.query).map((p, j) => (p.mark ? <mark key={j}>{p.text}</mark> : p.text))}
                </p>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
