interface RemovedTurnProps {
  question: string;
}

/** A stored turn whose answer is gone: deleted with a forgotten folder it quoted. */
export function RemovedTurn({ question }: RemovedTurnProps) {
  return (
    <article className="turn turn--removed" data-testid="removed-turn">
      <p className="turn__question">
        <span className="visually-hidden">Question: </span>
        {question}
      </p>
      <p className="muted">This answer was removed: it quoted a folder or file that has since been forgotten.</p>
    </article>
  );
}
