interface SuggestionsProps {
  questions: string[];
  /** Whether a question can get an answer now (setupStatus); null while unknown: nothing is shown. */
  canAnswer: boolean | null;
  onPick: (question: string) => void;
  /** Where a person goes to make answers possible, when they are not. */
  onSetup?: () => void;
}

/**
 * Example questions as buttons (the sample notes' questions after first run), offered only when
 * they can be answered; otherwise what can be done instead.
 */
export function Suggestions({ questions, canAnswer, onPick, onSetup }: SuggestionsProps) {
  if (questions.length === 0 || canAnswer === null) return null;
  if (!canAnswer) {
    return (
      <section className="suggestions suggestions--keyword-only" aria-labelledby="suggestions-title" data-testid="keyword-only-note">
        <h2 id="suggestions-title" className="section-title">
          Keyword search only
        </h2>
        <p>Quire cannot answer questions yet: answers need Ollama and a chat model. Meanwhile you can search your notes by keywords.</p>
        {onSetup && (
          <button type="button" className="button" onClick={onSetup}>
            Set up Ollama
          </button>
        )}
      </section>
    );
  }
  return (
    <section className="suggestions" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title" className="section-title">
        Try asking
      </h2>
      <ul>
        {questions.map((q) => (
          <li key={q}>
            <button type="button" className="button button--suggestion" data-testid="suggestion" onClick={() => onPick(q)}>
              {q}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
