import type { Output } from '../../../shared/contract';
import { useStatus } from './status';
import { formatNumber } from '../common/format';
import { ollamaNotRunning } from '../../../shared/ollama-state';

/** Always at the bottom: Ollama's state (and where it is, when not this machine), the models, and what is indexed. */
export function StatusBar() {
  const { status, error } = useStatus();
  return (
    <footer className="status-bar" data-testid="status-bar" role="status" aria-live="polite">
      {error ? (
        <span className="status-bar__item status--bad">{error.sentence}</span>
      ) : !status ? (
        <span className="status-bar__item muted">Checking…</span>
      ) : (
        <>
          {status.ollama.connected ? (
            <span className="status-bar__item status--ok" data-ollama="connected">
              <span className="dot dot--ok" aria-hidden="true" /> Ollama connected · version {status.ollama.version}
            </span>
          ) : ollamaNotRunning(status.ollama) ? (
            <span className="status-bar__item status--bad" data-ollama="down" title={status.ollama.error ?? undefined}>
              {/* Named, since nothing answering at a mistyped host reads the same as Ollama being down. */}
              <span className="dot dot--bad" aria-hidden="true" /> Ollama not running at <span className="mono">{status.ollama.host}</span> — keyword search only. Start it with{' '}
              <code>ollama serve</code>, or correct the Ollama host in Settings.
            </span>
          ) : (
            <span className="status-bar__item status--bad" data-ollama="failing">
              <span className="dot dot--bad" aria-hidden="true" /> Ollama not connected — keyword search only. {status.ollama.error}
            </span>
          )}
          {status.ollama.remote && (
            <span className="status-bar__item status--warn" data-remote="">
              Questions and document text go to <span className="mono">{status.ollama.host}</span>
            </span>
          )}
          <span className="status-bar__item">
            Chat model <span className="mono">{status.chatModel}</span>
          </span>
          <span className="status-bar__item">
            {formatNumber(status.documents.ready + status.documents.needsEmbedding)} documents · {formatNumber(status.chunks)} chunks
            {status.documents.needsEmbedding > 0 ? ` · ${formatNumber(status.documents.needsEmbedding)} need embedding` : ''}
            {status.documents.error > 0 ? ` · ${formatNumber(status.documents.error)} failed` : ''}
            {status.documents.skipped > 0 ? ` · ${formatNumber(status.documents.skipped)} skipped` : ''}
          </span>
          <span className="status-bar__item">
            {status.activeModel ? (
              <>
                Embedding model <span className="mono">{status.activeModel.name}</span>
                <DenseIndexNote dense={status.activeModel.dense} />
                {status.migration ? (
                  <span data-migration="">
                    {' '}
                    · switching to <span className="mono">{status.migration.to}</span>: {formatNumber(status.migration.documentsLeft)} documents left
                  </span>
                ) : null}
              </>
            ) : (
              'No embedding model yet'
            )}
          </span>
        </>
      )}
    </footer>
  );
}

/**
 * How meaning search reads the vectors, once there is something to say: two-stage with its measured
 * oversampling and recall, or the bits being built (exact search meanwhile). The sentence is the title.
 */
type Status = Output<'status'>;

function DenseIndexNote({ dense }: { dense: NonNullable<Status['activeModel']>['dense'] }) {
  if (!dense) return null;
  if (dense.method === 'quantized' && dense.oversampling !== null && dense.recallAt10 !== null) {
    return (
      <span data-dense="quantized" title={dense.reason}>
        {' '}
        · two-stage search ×{dense.oversampling}, recall@10 {dense.recallAt10.toFixed(2)}
      </span>
    );
  }
  if (dense.bits && !dense.bits.ready) {
    return (
      <span data-dense="building" title={dense.reason}>
        {' '}
        · building search bits {formatNumber(dense.bits.built)}/{formatNumber(dense.bits.total)}
      </span>
    );
  }
  return null;
}
