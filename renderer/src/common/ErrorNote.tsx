import type { DescribedError } from '../api/messages';
import { InlineCode } from './InlineCode';

/** An error as a sentence for people, with the engine's own words under it when they add something. */
export function ErrorNote({ error }: { error: DescribedError }) {
  return (
    <div className="error-note" role="alert" data-code={error.code}>
      <p>
        <InlineCode text={error.sentence} />
      </p>
      {error.detail && <p className="error-note__detail">{error.detail}</p>}
    </div>
  );
}
