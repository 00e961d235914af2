interface RefusalProps {
  /** True when Quire refused on its own because no passage was relevant enough. */
  withoutModel: boolean;
  sent: number;
}

/** The "Not in the documents." state, shown distinctly from an answer. */
export function Refusal({ withoutModel, sent }: RefusalProps) {
  return (
    <div className="refusal" data-testid="refusal" role="status">
      <span className="refusal__icon" aria-hidden="true">
        ∅
      </span>
      <div>
        <p className="refusal__title">Your documents don't say.</p>
        <p className="muted">
          {withoutModel
            ? 'No passage was close enough to the question, so the model was not asked.'
            : `The model was asked with ${sent} passage${sent === 1 ? '' : 's'} and found no answer in them.`}
        </p>
      </div>
    </div>
  );
}
