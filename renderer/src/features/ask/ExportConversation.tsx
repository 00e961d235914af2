import { downloadText } from '../../common/download';
import { conversationFileName, conversationToMarkdown } from './conversation-export';
import type { Turn } from './turn';

/** Downloads the conversation as a Markdown file, its sources listed under each answer. */
export function ExportConversation({ turns }: { turns: readonly Turn[] }) {
  return (
    <button
      type="button"
      className="button button--quiet"
      data-testid="export-conversation"
      onClick={() => downloadText(conversationFileName(), conversationToMarkdown(turns), 'text/markdown;charset=utf-8')}
    >
      Export as Markdown
    </button>
  );
}
