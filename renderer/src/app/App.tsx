import { useCallback, useEffect, useState } from 'react';
import { useReloadOn } from './reload';
import { useClient } from './client';
import { useConversation } from '../features/ask/conversation';
import { useEvalSession } from '../features/evaluate/eval-session';
import { AskView } from '../features/ask/AskView';
import { EvaluateView } from '../features/evaluate/EvaluateView';
import { FirstRun } from './FirstRun';
import { LibraryView } from '../features/library/LibraryView';
import { Nav, type View } from './Nav';
import { SettingsView } from '../features/settings/SettingsView';
import { StatusBar } from './StatusBar';

/** The shell: sidebar, the current view (or first run while the library is empty), status bar. */
export function App() {
  const client = useClient();
  const conversation = useConversation();
  const evalSession = useEvalSession();
  const [view, setView] = useState<View>('ask');
  const [firstRun, setFirstRun] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [focusTick, setFocusTick] = useState(0);

  const check = useCallback(
    () =>
      client.library({}).then(
        (l) => {
          if (l.collections.length === 0) setFirstRun(true);
        },
        () => {},
      ),
    [client],
  );
  useReloadOn(check, (e) => e.type === 'library.changed');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setFirstRun(false);
        setView('ask');
        setFocusTick((n) => n + 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const leaveFirstRun = (question: string | null) => {
    setFirstRun(false);
    setView('ask');
    if (question) void conversation.ask(question);
    else setFocusTick((n) => n + 1);
  };

  const go = (v: View) => {
    setFirstRun(false);
    setView(v);
  };

  return (
    <div className="app">
      <Nav view={view} onChange={go} />
      <main className="main" id="main">
        {firstRun ? (
          <FirstRun onDone={leaveFirstRun} onSampleQuestions={setSuggestions} />
        ) : view === 'ask' ? (
          <AskView conversation={conversation} suggestions={suggestions} focusTick={focusTick} />
        ) : view === 'library' ? (
          <LibraryView />
        ) : view === 'evaluate' ? (
          <EvaluateView session={evalSession} />
        ) : (
          <SettingsView />
        )}
      </main>
      <StatusBar />
    </div>
  );
}
