import { useEffect, useState } from 'react';
import type { ConversationSummary } from '../../../../shared/conversations';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import type { Conversation } from '../ask/conversation';
import { ConversationItem } from './ConversationItem';

interface ConversationSidebarProps {
  conversation: Conversation;
}

/** The stored conversations, newest first, with a search over their titles; opens, renames, deletes. */
export function ConversationSidebar({ conversation }: ConversationSidebarProps) {
  const client = useClient();
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(false);
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [reloadTick, setReloadTick] = useState(0);
  const { savedTick, id: openId } = conversation;

  useEffect(() => {
    let live = true;
    client.conversations(query.trim() ? { query: query.trim() } : {}).then(
      (r) => {
        if (!live) return;
        setList(r.conversations);
        setError(null);
      },
      (e) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, query, savedTick, reloadTick]);

  const reload = () => setReloadTick((n) => n + 1);
  const rename = async (id: number, title: string) => {
    await client.renameConversation({ id, title }).catch((e) => setError(describeError(e)));
    reload();
  };
  const remove = async (id: number) => {
    try {
      await client.deleteConversation({ id });
      if (id === openId) conversation.clear();
    } catch (e) {
      setError(describeError(e));
    }
    reload();
  };

  return (
    <aside className={shown ? 'conversations conversations--shown' : 'conversations'} aria-labelledby="conversations-title">
      {/* Narrow windows: the list is a menu over the page, opened here, so the answer keeps its width. */}
      <button type="button" className="button conversations__toggle" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
        {shown ? 'Close conversations' : 'Conversations'}
      </button>
      <h2 id="conversations-title" className="section-title">
        Conversations
      </h2>
      <button type="button" className="button" data-testid="new-conversation" disabled={conversation.running || conversation.turns.length === 0} onClick={conversation.clear}>
        New conversation
      </button>
      <label className="visually-hidden" htmlFor="conversation-search">
        Search conversation titles
      </label>
      <input id="conversation-search" type="search" data-testid="conversation-search" placeholder="Search titles" value={query} onChange={(e) => setQuery(e.target.value)} />
      {error && <ErrorNote error={error} />}
      {list && list.length === 0 && <p className="muted small">{query.trim() ? 'No title contains that.' : 'Your questions and their answers are kept here.'}</p>}
      <ul className="conversations__list">
        {(list ?? []).map((c) => (
          <ConversationItem
            key={c.id}
            conversation={c}
            current={c.id === openId}
            onOpen={() => {
              setShown(false);
              void conversation.open(c.id);
            }}
            onRename={(title) => rename(c.id, title)}
            onDelete={() => remove(c.id)}
          />
        ))}
      </ul>
    </aside>
  );
}
