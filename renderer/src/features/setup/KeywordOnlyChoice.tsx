interface KeywordOnlyChoiceProps {
  onContinue: () => void;
}

/** The way on without Ollama, said plainly: what still works and what does not. */
export function KeywordOnlyChoice({ onContinue }: KeywordOnlyChoiceProps) {
  return (
    <aside className="setup-aside" aria-label="Without Ollama">
      <p>
        <strong>Not now?</strong> You can import your notes and search them by keywords without Ollama. Answers and search by meaning start working once
        Ollama and its models are here.
      </p>
      <button type="button" className="button" onClick={onContinue} data-testid="keyword-only">
        Continue with keyword search only
      </button>
    </aside>
  );
}
