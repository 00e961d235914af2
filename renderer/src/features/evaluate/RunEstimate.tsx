import { plural } from '../../common/format';

interface RunEstimateProps {
  configs: number;
  questions: number;
  repeats: number;
  indexes: number;
  /** A chat model answers (each run is a full answer, not only a search). */
  answers: boolean;
}

/** How much work the grid means, before it starts: configurations × questions × repeats. */
export function RunEstimate({ configs, questions, repeats, indexes, answers }: RunEstimateProps) {
  const runs = configs * questions * repeats;
  return (
    <div className="eval-estimate" data-testid="eval-estimate" aria-live="polite">
      <p>
        <strong>{plural(configs, 'configuration')}</strong> × {plural(questions, 'question')} × {plural(repeats, 'repeat')} ={' '}
        <strong data-testid="eval-run-count">{plural(runs, answers ? 'answer' : 'search', answers ? 'answers' : 'searches')}</strong>
        <span className="muted">
          {' '}
          · {plural(indexes, 'index', 'indexes')} to build
        </span>
      </p>
      {answers && runs > 300 && <p className="warning small">That is a long run: every answer waits for the model. Fewer models or repeats make it quicker.</p>}
    </div>
  );
}
