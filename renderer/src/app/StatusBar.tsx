import type { ReactNode } from 'react';
import type { Output } from '../../../shared/contract';
import { useStatus } from './status';
import { formatNumber, plural } from '../common/format';
// Ollama's own shorthand (`name` is `name:latest`), as evaluations name models: the bar need not spend room on the tag.
import { evalModelName } from '../../../shared/eval';
import { hostOrigin, ollamaNotRunning, unreachableAdvice } from '../../../shared/ollama-state';

/** Always at the bottom: Ollama's state (and where it is, when not this machine), the models, and what is indexed. */
export function StatusBar({ onSetup }: { onSetup?: () => void }) {
  const { status, error } = useStatus();
  return (
    <footer className="status-bar" data-testid="status-bar" role="status" aria-live="polite">
      {error ? (
        <Item className="status--bad" text={error.sentence}>
          {error.sentence}
        </Item>
      ) : !status ? (
        <span className="status-bar__item muted">Checking…</span>
      ) : (
        <>
          <OllamaState ollama={status.ollama} />
          {!status.ollama.connected && onSetup && (
            // Its own part of the bar, never cut: the sentence before it may end in an ellipsis.
            <button type="button" className="button button--small status-bar__setup" onClick={onSetup} data-testid="status-setup">
              Set up Ollama…
            </button>
          )}
          {status.ollama.remote && (
            <Item className="status--warn" data-remote="" text={`Questions and document text go to ${status.ollama.host}`}>
              Questions and document text go to <span className="mono">{status.ollama.host}</span>
            </Item>
          )}
          <Item data-status="counts" text={countsText(status)}>
            {countsText(status)}
          </Item>
          <Item minor text={`Chat model ${status.chatModel}`}>
            Chat<span className="status-bar__wide"> model</span> <span className="mono">{evalModelName(status.chatModel)}</span>
          </Item>
          <Item minor text={embeddingText(status)}>
            {status.activeModel ? (
              <>
                Embedding<span className="status-bar__wide"> model</span> <span className="mono">{evalModelName(status.activeModel.name)}</span>
                <DenseIndexNote dense={status.activeModel.dense} />
                {status.migration ? (
                  <span data-migration="">
                    {' '}
                    · switching to <span className="mono">{status.migration.to}</span>: {plural(status.migration.documentsLeft, 'document')} left
                  </span>
                ) : null}
              </>
            ) : (
              'No embedding model yet'
            )}
          </Item>
        </>
      )}
    </footer>
  );
}

/**
 * One part of the bar. The bar keeps to one line (a panel floating above it is sized to that
 * line): parts too long for the window end in an ellipsis, the minor ones (the models) first, and
 * the whole text is the tooltip.
 */
function Item({ text, minor, className, children, ...data }: { text: string; minor?: boolean; className?: string; children: ReactNode } & Record<`data-${string}`, string>) {
  const classes = ['status-bar__item', minor ? 'status-bar__item--minor' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <span className={classes} title={text} {...data}>
      {children}
    </span>
  );
}

function OllamaState({ ollama }: { ollama: Status['ollama'] }) {
  if (ollama.connected) {
    return (
      // Short enough never to be cut (the bar's other parts give way); narrow windows shorten "version" to "v".
      <Item className="status--ok status-bar__item--whole" data-ollama="connected" text={ollama.version ? `Ollama connected · version ${ollama.version}` : 'Ollama connected'}>
        <span className="dot dot--ok" aria-hidden="true" /> Ollama connected
        {ollama.version && (
          <>
            {' · '}
            <span className="status-bar__wide">version </span>
            <span className="status-bar__version">{ollama.version}</span>
          </>
        )}
      </Item>
    );
  }
  if (ollamaNotRunning(ollama)) {
    // The bar says what a person can still do and where Ollama was looked for, short enough to leave
    // room for what is indexed; what to do about it is the tooltip's (and the welcome's) longer sentence.
    const sentence = `Keyword search only: Ollama is not running at ${ollama.host}${ollama.hostSource ? ` (${hostOrigin(ollama.hostSource)})` : ''}. ${unreachableAdvice(ollama.hostSource ?? 'saved')}`;
    return (
      // The engine's own message says the same (host, source, advice): the tooltip says it once.
      <Item className="status--bad status-bar__item--whole" data-ollama="down" text={sentence}>
        {/* Named, since nothing answering at a mistyped host reads the same as Ollama being down. */}
        <span className="dot dot--bad" aria-hidden="true" /> Keyword search only · Ollama not running at <span className="mono">{hostName(ollama.host)}</span>
      </Item>
    );
  }
  return (
    <Item className="status--bad" data-ollama="failing" text={`Keyword search only: Ollama is not connected. ${ollama.error ?? ''}`.trim()}>
      <span className="dot dot--bad" aria-hidden="true" /> Keyword search only: Ollama is not connected. {ollama.error}
    </Item>
  );
}

/** A host without its scheme (`127.0.0.1:11434`): the address a person recognises, in less room. */
function hostName(host: string): string {
  return host.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/$/, '');
}

/** What is indexed, counted as the Library's folder cards count (failed and skipped files apart). */
function countsText(status: Status): string {
  const d = status.documents;
  return (
    `${plural(d.ready + d.needsEmbedding, 'document')} · ${plural(status.chunks, 'chunk')}` +
    (d.needsEmbedding > 0 ? ` · ${formatNumber(d.needsEmbedding)} need embedding` : '') +
    (d.error > 0 ? ` · ${formatNumber(d.error)} failed` : '') +
    (d.skipped > 0 ? ` · ${formatNumber(d.skipped)} skipped` : '')
  );
}

function embeddingText(status: Status): string {
  if (!status.activeModel) return 'No embedding model yet';
  const dense = denseNote(status.activeModel.dense);
  const note = dense ? ` ${dense.text}` : '';
  const migration = status.migration ? ` · switching to ${status.migration.to}: ${plural(status.migration.documentsLeft, 'document')} left` : '';
  return `Embedding model ${status.activeModel.name}${note}${migration}`;
}

type Status = Output<'status'>;

/**
 * How meaning search reads the vectors, once there is something to say: two-stage with its measured
 * oversampling and recall, or the bits being built (exact search meanwhile). The sentence is the title.
 */
function DenseIndexNote({ dense }: { dense: Dense }) {
  const note = denseNote(dense);
  if (!note) return null;
  return (
    <span data-dense={note.method} title={note.reason}>
      {' '}
      {note.text}
    </span>
  );
}

type Dense = NonNullable<Status['activeModel']>['dense'];

function denseNote(dense: Dense): { method: 'quantized' | 'building'; text: string; reason: string } | null {
  if (!dense) return null;
  if (dense.method === 'quantized' && dense.oversampling !== null && dense.recallAt10 !== null) {
    return { method: 'quantized', text: `· two-stage search ×${dense.oversampling}, recall@10 ${dense.recallAt10.toFixed(2)}`, reason: dense.reason };
  }
  if (dense.bits && !dense.bits.ready) {
    return { method: 'building', text: `· building search bits ${formatNumber(dense.bits.built)}/${formatNumber(dense.bits.total)}`, reason: dense.reason };
  }
  return null;
}
