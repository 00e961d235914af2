import { indexReuseSentence, type EvalReport } from '../../../../shared/eval';
import { shortHash, shortModel } from './eval-metrics';
import { formatDuration } from '../../common/format';
import { plural } from '../../common/format';

/** What a report was run on: corpus, questions, versions, model digests, duration (its title is the report view's heading). */
export function ReportHeader({ report }: { report: EvalReport }) {
  const { run } = report;
  const repeats = run.grid.repeats;
  const models = Object.entries(run.models);
  const errors = report.configs.reduce((n, c) => n + c.errors, 0);
  // As `quire eval` says it; here the way to build them anew is the Evaluation indexes card's Remove all (there is no --fresh-index on a run).
  const reuse = indexReuseSentence(run, (them) => `To build ${them} anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.`);
  return (
    <header className="eval-report-head">
      <p className="muted small mono eval-report-head__docs" title={run.docs}>
        {run.docs}
      </p>
      <dl className="facts">
        <div>
          <dt>Documents</dt>
          <dd>
            {report.corpus.documents}{' '}
            <span className="muted mono small" title={`Corpus fingerprint ${report.corpus.fingerprint}: changes when any document changes`}>
              {shortHash(report.corpus.fingerprint)}
            </span>
          </dd>
        </div>
        <div>
          <dt>Questions</dt>
          <dd>
            {report.questions.answerable} answerable, {report.questions.unanswerable} unanswerable
          </dd>
        </div>
        <div>
          <dt>Configurations</dt>
          <dd>
            {report.configs.length}
            {repeats > 1 ? ` × ${plural(repeats, 'repeat')}` : ''}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(run.ms)}</dd>
        </div>
        <div>
          <dt>Quire</dt>
          <dd>{run.quire}</dd>
        </div>
        <div>
          <dt>Ollama</dt>
          <dd>{run.ollama ?? 'unknown'}</dd>
        </div>
      </dl>
      {models.length > 0 && (
        <ul className="eval-digests small" aria-label="Model digests">
          {models.map(([name, digest]) => (
            <li key={name}>
              <span className="mono">{shortModel(name)}</span>{' '}
              <span className="muted mono" title={digest ? `Digest ${digest}` : 'Digest unknown'}>
                {shortHash(digest)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small eval-report-head__settings" data-testid="eval-answer-settings">
        Answers asked with num_ctx up to {run.answerSettings.numCtxCap.toLocaleString('en-US')}, at most {run.answerSettings.numPredict.toLocaleString('en-US')} tokens each,
        temperature {run.answerSettings.temperature}, seed {run.answerSettings.seed}; meaning matches farther than {run.answerSettings.maxDistance} (L2 distance) left out.
      </p>
      {reuse && (
        <p className="muted small" data-testid="eval-index-reuse">
          {reuse}
        </p>
      )}
      {errors > 0 && (
        <p className="warning small" data-testid="eval-errors">
          {plural(errors, 'question run')} failed (see the Errors column; the drill-down shows each error). What they retrieved still counts; their answers are left out of
          the answer metrics.
        </p>
      )}
      {(report.warnings ?? []).map((w) => (
        <p key={w} className="warning small" data-testid="eval-warning">
          {w}
        </p>
      ))}
    </header>
  );
}
