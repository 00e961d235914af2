import { scopeLabel } from '../../../../shared/scope-path';
import type { CiteNode } from './remark-cites';
import { chipInfo, type ChipInfo } from './citations';
import { unanswered, type Turn } from './turn';
import { ErrorNote } from '../../common/ErrorNote';
import { AnswerFlags } from './AnswerFlags';
import { BudgetMeter } from './BudgetMeter';
import { CitationChip } from './CitationChip';
import { Markdown } from './Markdown';
import { Refusal } from './Refusal';
import { RetrievalTrace } from './RetrievalTrace';
import { SaveAsTest } from './SaveAsTest';

interface AnswerViewProps {
  turn: Turn;
  onOpenSource: (info: ChipInfo, chip: HTMLButtonElement) => void;
  /** Asks this turn's question again; offered when it got no answer. */
  onRetry?: (() => void) | undefined;
}

/** One exchange: the question, the streamed answer with its chips, warnings, budget and trace. */
export function AnswerView({ turn, onOpenSource, onRetry }: AnswerViewProps) {
  const result = turn.result;
  const refused = result?.refused ?? false;
  const renderCite = (c: CiteNode) => <CitationChip key={c.index} info={chipInfo(c, result?.citations ?? null, turn.candidates, result?.sources)} onOpen={onOpenSource} />;
  return (
    <article className="turn" aria-busy={turn.running}>
      <p className="turn__question">
        <span className="visually-hidden">Question: </span>
        {turn.question}
      </p>
      {turn.standaloneQuery && turn.standaloneQuery !== turn.question && <p className="muted turn__rewrite">Searched for: {turn.standaloneQuery}</p>}
      <div className="answer" data-testid="answer" aria-live="polite" data-state={turn.running ? 'streaming' : (result?.status ?? 'error')}>
        {refused ? (
          <Refusal withoutModel={result?.refusedWithoutModel ?? false} sent={turn.candidates.filter((c) => c.sent).length} />
        ) : turn.text ? (
          <Markdown text={turn.text} renderCite={renderCite} />
        ) : turn.running ? (
          <p className="muted" data-testid="answer-waiting">{turn.waiting ?? (turn.candidates.length > 0 ? 'Reading the passages…' : 'Searching your documents…')}</p>
        ) : null}
        {turn.running && turn.text && <span className="cursor" aria-hidden="true" />}
      </div>
      {result?.status === 'cancelled' && <p className="muted">Cancelled.</p>}
      {turn.error && <ErrorNote error={turn.error} />}
      {onRetry && unanswered(turn) && (
        <div className="row turn__retry">
          <button type="button" className="button" data-testid="retry" onClick={onRetry}>
            Retry
          </button>
          <span className="muted small">Not added to the conversation: there was no complete answer.</span>
        </div>
      )}
      {result && result.scope.length > 0 && (
        <p className="muted small" data-testid="answer-scope">
          Asked of {result.scope.map(scopeLabel).join(', ')} only.
        </p>
      )}
      {result && <AnswerFlags flags={result.flags} />}
      <BudgetMeter budget={turn.budget} pending={turn.running} />
      <RetrievalTrace candidates={turn.candidates} mode={turn.mode} note={turn.note} />
      {result && !turn.running && <SaveAsTest question={turn.question} result={result} />}
    </article>
  );
}
