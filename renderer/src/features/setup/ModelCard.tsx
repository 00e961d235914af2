import type { SetupStatus } from '../../../../shared/setup';
import { formatSize } from '../../../../shared/setup-models';

type SetupModel = SetupStatus['chat'];

interface ModelCardProps {
  kind: 'chat' | 'embedding';
  model: SetupModel;
  /** A download or a change is under way: the buttons wait. */
  busy: boolean;
  onPull: (name: string) => void;
  onUse: (name: string) => void;
}

const ROLE = {
  embedding: { title: 'Embedding model', does: 'finds passages by meaning' },
  chat: { title: 'Chat model', does: 'writes the answers' },
};

/** One of the two models: installed, or the one to download (its size and why it fits), or one already here to use instead. */
export function ModelCard({ kind, model, busy, onPull, onUse }: ModelCardProps) {
  const role = ROLE[kind];
  const rec = model.recommended;
  const name = rec?.name ?? model.name;
  return (
    <li className={model.installed ? 'model-card model-card--done' : 'model-card'} data-testid={`model-${kind}`}>
      <span className="model-card__mark" aria-hidden="true">
        {model.installed ? '✓' : '↓'}
      </span>
      <div className="model-card__main">
        <p className="model-card__title">
          <strong>{role.title}</strong> <span className="muted">— {role.does}</span>
        </p>
        {model.installed ? (
          <p>
            <span className="mono">{model.name}</span> is installed.
          </p>
        ) : (
          <>
            <p>
              <span className="mono model-card__name">{name}</span>
              {rec && <span className="model-card__size"> {formatSize(rec.downloadBytes)}</span>}
            </p>
            <p className="small">{rec ? rec.why : `Settings name ${model.name}, which Ollama does not have yet.`}</p>
            {model.alternatives.length > 0 && (
              <div className="model-card__alternatives">
                <span className="small muted">Or use one you already have:</span>
                {model.alternatives.map((alt) => (
                  <button key={alt} type="button" className="button button--small button--quiet" onClick={() => onUse(alt)} disabled={busy} aria-label={`Use ${alt}`}>
                    Use <span className="mono">{alt}</span>
                  </button>
                ))}
              </div>
            )}
          </>
        )}
      </div>
      {!model.installed && (
        <button type="button" className="button model-card__pull" onClick={() => onPull(name)} disabled={busy} aria-label={`Download ${name}`}>
          Download
        </button>
      )}
    </li>
  );
}
