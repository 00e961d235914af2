import type { Output } from '../../../../shared/contract';
import type { DescribedError } from '../../api/messages';
import { formatBytes } from '../../common/format';
import { ErrorNote } from '../../common/ErrorNote';

type Model = Output<'listModels'>['models'][number];

interface ModelListProps {
  models: Model[] | null;
  error: DescribedError | null;
  onRefresh: () => void;
}

/** The models installed in Ollama. */
export function ModelList({ models, error, onRefresh }: ModelListProps) {
  return (
    <section className="card" aria-labelledby="models-title">
      <header className="card__head">
        <h2 id="models-title" className="section-title">
          Installed models
        </h2>
        <button type="button" className="button button--quiet" onClick={onRefresh}>
          Refresh
        </button>
      </header>
      {error && <ErrorNote error={error} />}
      {models && models.length === 0 && <p className="muted">Ollama has no models yet. Pull one below.</p>}
      {models && models.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">Family</th>
                <th scope="col">Parameters</th>
                <th scope="col">Quantization</th>
                <th scope="col">Digest</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.name}>
                  <td className="mono">{m.name}</td>
                  <td className="num">{formatBytes(m.size)}</td>
                  <td>{m.family ?? '—'}</td>
                  <td>{m.parameterSize ?? '—'}</td>
                  <td>{m.quantization ?? '—'}</td>
                  <td className="mono" title={m.digest}>
                    {m.digest.replace(/^sha256:/, '').slice(0, 12)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
