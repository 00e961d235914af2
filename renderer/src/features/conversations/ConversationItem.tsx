import { useState } from 'react';
import { TITLE_MAX, type ConversationSummary } from '../../../../shared/conversations';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { formatDate, plural } from '../../common/format';

interface ConversationItemProps {
  conversation: ConversationSummary;
  current: boolean;
  onOpen: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}

/** One stored conversation in the sidebar: open it, rename it in place, or delete it (after asking). */
export function ConversationItem({ conversation: c, current, onOpen, onRename, onDelete }: ConversationItemProps) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);

  const submitRename = async () => {
    const title = renaming?.trim() ?? '';
    if (!title || title === c.title) return setRenaming(null);
    setBusy(true);
    try {
      await onRename(title);
      setRenaming(null);
    } finally {
      setBusy(false);
    }
  };

  if (renaming !== null) {
    return (
      <li className="conversation">
        <form
          className="conversation__rename"
          onSubmit={(e) => {
            e.preventDefault();
            void submitRename();
          }}
        >
          <label className="visually-hidden" htmlFor={`rename-${c.id}`}>
            New title
          </label>
          <input
            id={`rename-${c.id}`}
            data-testid="conversation-title-input"
            value={renaming}
            maxLength={TITLE_MAX}
            autoFocus
            onChange={(e) => setRenaming(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setRenaming(null);
            }}
          />
          <button type="submit" className="button button--quiet" disabled={busy}>
            Save
          </button>
        </form>
      </li>
    );
  }

  return (
    <li className={current ? 'conversation conversation--current' : 'conversation'}>
      <button type="button" className="conversation__open" data-testid="conversation" aria-current={current ? 'true' : undefined} onClick={onOpen} title={c.title}>
        {c.title}
      </button>
      {/* Outside the button (its name stays the title); conversations often start with the same question. */}
      <span className="conversation__meta muted small" data-testid="conversation-meta">
        {formatDate(c.updatedAt, { year: new Date(c.updatedAt).getFullYear() !== new Date().getFullYear() })} · {plural(c.turnCount, 'answer')}
      </span>
      <button type="button" className="button button--quiet conversation__action" aria-label={`Rename “${c.title}”`} onClick={() => setRenaming(c.title)}>
        Rename
      </button>
      <button type="button" className="button button--quiet conversation__action" aria-label={`Delete “${c.title}”`} onClick={() => setDeleting(true)}>
        Delete
      </button>
      {deleting && (
        <ConfirmDialog
          title="Delete this conversation?"
          confirmLabel="Delete conversation"
          busy={busy}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setBusy(true);
            void onDelete().finally(() => {
              setBusy(false);
              setDeleting(false);
            });
          }}
        >
          <p>
            “{c.title}”, its {c.turnCount === 1 ? 'answer' : `${c.turnCount} answers`} and their records are removed. Your notes are not touched.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
