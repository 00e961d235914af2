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
  /** The setup steps in place of the view: as the welcome while the library is empty, or opened later (status bar, Settings). */
  const [setup, setSetup] = useState<'welcome' | 'later' | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [focusTick, setFocusTick] = useState(0);

  const check = useCallback(
    () =>
      client.library({}).then(
        (l) => {
          if (l.collections.length === 0) setSetup('welcome');
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
        setSetup(null);
        setView('ask');
        setFocusTick((n) => n + 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const leaveFirstRun = (question: string | null) => {
    setSetup(null);
    setView('ask');
    if (question) void conversation.ask(question);
    else setFocusTick((n) => n + 1);
  };

  const go = (v: View) => {
    setSetup(null);
    setView(v);
  };
  const openSetup = () => setSetup((s) => s ?? 'later');

  return (
    <div className="app">
      <Nav view={view} onChange={go} />
      <main className="main" id="main">
        {setup ? (
          <FirstRun welcome={setup === 'welcome'} onDone={leaveFirstRun} onSampleQuestions={setSuggestions} />
        ) : view === 'ask' ? (
          <AskView conversation={conversation} suggestions={suggestions} focusTick={focusTick} onSetup={openSetup} />
        ) : view === 'library' ? (
          <LibraryView />
        ) : view === 'evaluate' ? (
          <EvaluateView session={evalSession} />
        ) : (
          <SettingsView onSetup={openSetup} />
        )}
      </main>
      <StatusBar onSetup={openSetup} />
    </div>
  );
}
