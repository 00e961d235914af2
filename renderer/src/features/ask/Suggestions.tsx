interface SuggestionsProps {
  questions: string[];
  onPick: (question: string) => void;
}

/** Example questions as buttons (the sample notes' questions after first run). */
export function Suggestions({ questions, onPick }: SuggestionsProps) {
  if (questions.length === 0) return null;
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
