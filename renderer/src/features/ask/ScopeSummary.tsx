import { shortScopeLabel } from './scope-tree';

interface ScopeSummaryProps {
  /** The ticked places as `scopeLabel` writes them; none: every folder. */
  labels: readonly string[];
  /** The scope was set by opening a conversation: said, so a follow-up's folders are never a surprise. */
  fromConversation: boolean;
}

/**
 * The scope picker's one line: the places asked of, or the first and "+N more". The count and the
 * note sit apart from the place, which alone is cut short (ellipsis) when the line is too narrow;
 * the whole list is the tooltip.
 */
export function ScopeSummary({ labels, fromConversation }: ScopeSummaryProps) {
  const { lead, more } = shortScopeLabel(labels);
  return (
    <summary>
      <span className="scope__ask-of">Ask of:</span>
      <strong className="scope__summary" title={labels.join(', ') || undefined}>
        <span className="scope__lead">{lead}</span>
        {more > 0 && <span className="scope__more">, +{more} more</span>}
      </strong>
      {fromConversation && <span className="scope__origin small">· as this conversation’s last question</span>}
    </summary>
  );
}
