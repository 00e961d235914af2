import { KEYWORD_ONLY } from '../../../../shared/setup-sentences';

interface KeywordOnlyChoiceProps {
  onContinue: () => void;
}

/** The way on without Ollama, said plainly: what still works and what does not. */
export function KeywordOnlyChoice({ onContinue }: KeywordOnlyChoiceProps) {
  return (
    <aside className="setup-aside" aria-label="Without Ollama">
      <p>
        <strong>Not now?</strong> {KEYWORD_ONLY}
      </p>
      <button type="button" className="button" onClick={onContinue} data-testid="keyword-only">
        Continue with keyword search only
      </button>
    </aside>
  );
}
