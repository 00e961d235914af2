import { useCallback, useEffect, useRef, useState } from 'react';
import type { Conversation } from './conversation';
import type { ChipInfo } from './citations';
import { unanswered } from './turn';
import { AnswerView } from './AnswerView';
import { ExportConversation } from './ExportConversation';
import { QuestionBox } from './QuestionBox';
import { ScopePicker } from './ScopePicker';
import { SearchBox } from './SearchBox';
import { SourcePanel, citationTarget, type SourceRequest, type SourceTarget } from './SourcePanel';
import { TryAsking } from './TryAsking';
import { ErrorNote } from '../../common/ErrorNote';
import { ConversationSidebar } from '../conversations/ConversationSidebar';
import { RemovedTurn } from '../conversations/RemovedTurn';

interface AskViewProps {
  conversation: Conversation;
  suggestions: string[];
  focusTick: number;
  /** Opens the setup steps, from the note that says no answer can be given yet. */
  onSetup?: () => void;
}

/** The stored conversations, the open one, the question box, passage search, and the source panel beside them. */
export function AskView({ conversation, suggestions, focusTick, onSetup }: AskViewProps) {
  const [source, setSource] = useState<SourceRequest | null>(null);
  const open = useCallback((info: ChipInfo, chip: HTMLButtonElement) => setSource({ info: citationTarget(info), opener: chip }), []);
  const openResult = useCallback((info: SourceTarget, opener: HTMLButtonElement) => setSource({ info, opener }), []);
  const close = useCallback(() => setSource(null), []);
  const { turns } = conversation;
  const scrollRef = useRef<HTMLDivElement>(null);
  const turnsRef = useRef<HTMLDivElement>(null);
  // A question just asked is brought to the top of the conversation's own scroll, under earlier
  // answers that may fill it; opening a stored conversation (no turn running) leaves it be. Not
  // scrollIntoView: that also scrolls the window, shifting the whole shell up.
  const last = turns.at(-1);
  // The question of a last turn that got no answer goes back into the box, to edit or ask again.
  const failedLast = last && unanswered(last) && last.result?.status !== 'cancelled' ? last : null;
  const asked = last?.running ? last.id : null;
  useEffect(() => {
    const box = scrollRef.current;
    const turn = turnsRef.current?.lastElementChild;
    if (asked === null || !box || !turn) return;
    box.scrollTo?.({ top: box.scrollTop + turn.getBoundingClientRect().top - box.getBoundingClientRect().top, behavior: 'smooth' });
  }, [asked]);
  return (
    <div className={source ? 'ask ask--with-panel' : 'ask'}>
      <ConversationSidebar conversation={conversation} />
      <div className="ask__main">
        <h1 className="visually-hidden">Ask</h1>
        {conversation.openError && <ErrorNote error={conversation.openError} />}
        {/* The conversation scrolls on its own, above the question box, which so never covers it. */}
        <div className="ask__scroll" data-testid="ask-scroll" ref={scrollRef}>
          {turns.length === 0 && suggestions.length > 0 && <TryAsking questions={suggestions} onPick={(q) => void conversation.ask(q)} onSetup={onSetup} />}
          <div className="turns" ref={turnsRef}>
            {turns.map((t) =>
              t.removed ? (
                <RemovedTurn key={t.id} question={t.question} />
              ) : (
                <AnswerView key={t.id} turn={t} onOpenSource={open} onRetry={conversation.running ? undefined : () => void conversation.retry(t.id)} />
              ),
            )}
          </div>
          {turns.length > 0 && !conversation.running && (
            <div className="row ask__actions">
              <ExportConversation turns={turns} />
            </div>
          )}
          <SearchBox onOpenSource={openResult} />
        </div>
        <ScopePicker />
        <QuestionBox
          running={conversation.running}
          onAsk={(q) => void conversation.ask(q)}
          onCancel={conversation.cancel}
          focusTick={focusTick}
          // A follow-up continues answers; a question that got none leaves nothing to follow.
          followUp={conversation.id !== null || turns.some((t) => !t.removed && !t.running && !unanswered(t))}
          restore={failedLast ? { text: failedLast.question, key: failedLast.id } : null}
        />
      </div>
      {source && <SourcePanel request={source} onClose={close} />}
    </div>
  );
}
