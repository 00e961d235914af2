import { useCallback, useState } from 'react';
import type { Conversation } from './conversation';
import type { ChipInfo } from './citations';
import { AnswerView } from './AnswerView';
import { ExportConversation } from './ExportConversation';
import { QuestionBox } from './QuestionBox';
import { SearchBox } from './SearchBox';
import { SourcePanel, type SourceRequest } from './SourcePanel';
import { Suggestions } from './Suggestions';

interface AskViewProps {
  conversation: Conversation;
  suggestions: string[];
  focusTick: number;
}

/** The conversation, the question box, passage search, and the source panel beside them. */
export function AskView({ conversation, suggestions, focusTick }: AskViewProps) {
  const [source, setSource] = useState<SourceRequest | null>(null);
  const open = useCallback((info: ChipInfo, chip: HTMLButtonElement) => setSource({ info, opener: chip }), []);
  const close = useCallback(() => setSource(null), []);
  const { turns } = conversation;
  return (
    <div className={source ? 'ask ask--with-panel' : 'ask'}>
      <div className="ask__main">
        <h1 className="visually-hidden">Ask</h1>
        {/* The conversation scrolls on its own, above the question box, which so never covers it. */}
        <div className="ask__scroll" data-testid="ask-scroll">
          {turns.length === 0 && <Suggestions questions={suggestions} onPick={(q) => void conversation.ask(q)} />}
          <div className="turns">
            {turns.map((t) => (
              <AnswerView key={t.id} turn={t} onOpenSource={open} />
            ))}
          </div>
          {turns.length > 0 && !conversation.running && (
            <div className="row ask__actions">
              <button type="button" className="button button--quiet" onClick={conversation.clear}>
                New conversation
              </button>
              <ExportConversation turns={turns} />
            </div>
          )}
          <SearchBox />
        </div>
        <QuestionBox running={conversation.running} onAsk={(q) => void conversation.ask(q)} onCancel={conversation.cancel} focusTick={focusTick} followUp={turns.length > 0} />
      </div>
      {source && <SourcePanel request={source} onClose={close} />}
    </div>
  );
}
