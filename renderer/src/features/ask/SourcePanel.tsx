import { useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useDesktop } from '../../common/desktop';
import type { ChipCheck, ChipInfo } from './citations';
import { formatLines, formatPlace } from '../../common/format';
import { formatPages } from '../../../../shared/pages';
import { describeInjectionFlags, CHECK_WORDS } from '../../common/words';
import { ErrorNote } from '../../common/ErrorNote';
import { SourceLines } from './SourceLines';
import { Markdown } from './Markdown';

/** What the panel shows: an answer's citation, or a passage search's result. */
export interface SourceTarget {
  chunkId: string;
  /** "Source 2", "Search result 3". */
  title: string;
  /** The citation's check; null for a search result, which cites nothing. */
  check: ChipCheck | null;
  sentence: string | null;
  /** The chunks shown with it as its context (sent with it, or its search passage). */
  sent: readonly string[] | null;
}

export interface SourceRequest {
  info: SourceTarget;
  /** Where focus goes back when the panel closes. */
  opener: HTMLElement | null;
}

export function citationTarget(info: ChipInfo): SourceTarget {
  return { chunkId: info.chunkId, title: `Source ${info.n}`, check: info.check, sentence: info.sentence, sent: info.sent };
}

interface SourcePanelProps {
  request: SourceRequest;
  onClose: () => void;
}

type ChunkView = Output<'getChunk'>;

/** The cited passage with line numbers (and its page, in a PDF), its neighbours greyed for context, and its flags. */
export function SourcePanel({ request, onClose }: SourcePanelProps) {
  const client = useClient();
  const desktop = useDesktop();
  const [chunk, setChunk] = useState<ChunkView | null>(null);
  /** Numbered lines, with the cited ones highlighted, or the passage formatted as Markdown. */
  const [view, setView] = useState<'lines' | 'formatted'>('lines');
  const [error, setError] = useState<DescribedError | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const { info, opener } = request;

  useEffect(() => {
    let live = true;
    setChunk(null);
    setError(null);
    // The chunks sent with it are its context: what the model read, a whole section perhaps.
    client.getChunk({ chunkId: info.chunkId, ...(info.sent && info.sent.length > 1 ? { sent: [...info.sent] } : {}) }).then(
      (c) => live && setChunk(c),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, info.chunkId, info.sent]);

  useEffect(() => {
    closeRef.current?.focus();
  }, [info.chunkId]);

  // Once the passage is in, the panel scrolls so the first highlighted line sits a third of the way
  // down, where the eye lands; the panel scrolls by itself, so the conversation stays where it was.
  useEffect(() => {
    const panel = panelRef.current;
    const hit = panel?.querySelector('[data-testid="source-highlight"]');
    if (!panel || !hit) return;
    panel.scrollTop += hit.getBoundingClientRect().top - panel.getBoundingClientRect().top - panel.clientHeight / 3;
  }, [chunk]);

  const close = () => {
    onClose();
    opener?.focus();
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
        opener?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, opener]);

  const injection = chunk ? describeInjectionFlags(chunk.flags) : null;
  return (
    <aside ref={panelRef} className="source-panel" data-testid="source-panel" role="dialog" aria-modal="false" aria-labelledby="source-panel-title">
      <header className="source-panel__head">
        {/* The head stays while the panel scrolls to a highlight far down, so it also says where from. */}
        <div className="source-panel__title">
          <h2 id="source-panel-title">{info.title}</h2>
          {chunk && (
            <p className="source-panel__where mono small" data-testid="source-where">
              {chunk.path} · {formatPlace(chunk.lines, chunk.pages)}
            </p>
          )}
        </div>
        {desktop && chunk && (
          <button type="button" className="button" onClick={() => void client.openSourceFile({ chunkId: chunk.chunkId }).catch(() => {})}>
            Open file
          </button>
        )}
        <button ref={closeRef} type="button" className="button button--quiet" onClick={close} aria-label="Close source panel">
          Close
        </button>
      </header>
      {info.check && <p className={`source-panel__check chip-text--${info.check}`}>This citation is {CHECK_WORDS[info.check]}.</p>}
      {error && <ErrorNote error={error} />}
      {!chunk && !error && <p className="muted">Loading the passage…</p>}
      {chunk && (
        <>
          <dl className="source-panel__meta">
            <dt>File</dt>
            <dd>{chunk.path}</dd>
            <dt>Heading</dt>
            <dd>{chunk.heading || '—'}</dd>
            {chunk.pages ? (
              // A PDF: its page is what a person can turn to; its lines are only the extracted text's.
              <>
                <dt>{chunk.pages[0] === chunk.pages[1] ? 'Page' : 'Pages'}</dt>
                <dd data-testid="source-pages">{formatPages(chunk.pages).replace(/^pp?\. /, '')}</dd>
              </>
            ) : (
              <>
                <dt>Lines</dt>
                <dd>{formatLines(chunk.lines).replace(/^lines? /, '')}</dd>
              </>
            )}
          </dl>
          {injection && (
            <p className="warning" role="note">
              {injection}
            </p>
          )}
          {info.sentence && (
            <p className="source-panel__sentence">
              Cited for: <q>{info.sentence}</q>
            </p>
          )}
          <div className="row source-panel__views" role="group" aria-label="Show the passage">
            <button type="button" className="button button--small button--quiet" aria-pressed={view === 'lines'} onClick={() => setView('lines')}>
              Numbered
            </button>
            <button type="button" className="button button--small button--quiet" aria-pressed={view === 'formatted'} onClick={() => setView('formatted')}>
              Formatted
            </button>
          </div>
          {view === 'lines' ? (
            <div className="source-text" tabIndex={0} aria-label="Passage text with line numbers">
              {/* The blank lines between chunks belong to none of them; shown as context, so every line keeps its number. */}
              {chunk.before && <SourceLines text={chunk.before.text + blankLines(chunk.lines[0] - chunk.before.lines[1] - 1)} first={chunk.before.lines[0]} role="context" />}
              <SourceLines text={chunk.text} first={chunk.lines[0]} role="cited" sentence={info.sentence} />
              {chunk.after && (
                <SourceLines text={blankLines(chunk.after.lines[0] - chunk.lines[1] - 1) + chunk.after.text} first={Math.min(chunk.after.lines[0], chunk.lines[1] + 1)} role="context" />
              )}
            </div>
          ) : (
            // As its author would read it: the same Markdown renderer as answers (no raw HTML, no remote images).
            <div className="source-formatted" data-testid="source-formatted" tabIndex={0} aria-label="Passage text, formatted">
              <Markdown text={[chunk.before?.text, chunk.text, chunk.after?.text].filter((t) => t !== undefined).join('\n\n')} />
            </div>
          )}
        </>
      )}
    </aside>
  );
}

/** `n` empty lines to add to a text (none for n ≤ 0: chunks that touch or share a split line). */
function blankLines(n: number): string {
  return '\n'.repeat(Math.max(0, n));
}
