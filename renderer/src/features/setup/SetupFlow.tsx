import { useEffect, useState } from 'react';
import { ErrorNote } from '../../common/ErrorNote';
import { CheckAgain } from './CheckAgain';
import { CheckStep } from './CheckStep';
import { ModelsStep } from './ModelsStep';
import { NotesStep } from './NotesStep';
import { OllamaStep } from './OllamaStep';
import { SetupSteps } from './SetupSteps';
import { currentStep, doneSteps, type Proceeded } from './setup-steps';
import { useSetupStatus } from './setup-status';

interface SetupFlowProps {
  /** Leave the flow; with a question when a suggestion was picked. */
  onDone: (question: string | null) => void;
  onSampleQuestions: (questions: string[]) => void;
}

/**
 * From no Ollama to a first answer: the step list and the step the state calls for. setupStatus
 * decides steps 1 and 2 and is asked again on focus, Check again and after a download; the check
 * and going on without Ollama are the person's own.
 */
export function SetupFlow({ onDone, onSampleQuestions }: SetupFlowProps) {
  const { status, error, checking, recheck } = useSetupStatus();
  const [proceeded, setProceeded] = useState<Proceeded>(null);
  const [verified, setVerified] = useState(false);
  const state = status?.state ?? null;
  // A check passed no longer holds once a model or Ollama has gone.
  useEffect(() => {
    if (state !== null && state !== 'ready') setVerified(false);
  }, [state]);

  const step = status ? currentStep(status.state, proceeded) : null;
  const done = status ? doneSteps(status.state, verified, status.documents) : new Set<never>();
  const hasNotes = (status?.documents ?? 0) > 0;
  // With notes already in, going on without Ollama is simply leaving for them.
  const keywordOnly = () => (hasNotes ? onDone(null) : setProceeded('keyword-only'));

  return (
    <div className="setup-flow">
      <SetupSteps current={step} done={done} />
      <div className="setup-flow__panel card">
        {!status && !error && <p className="muted" role="status">Looking for Ollama…</p>}
        {!status && error && (
          <>
            <ErrorNote error={error} />
            <CheckAgain checking={checking} onCheck={recheck} />
          </>
        )}
        {status && step === 'ollama' && <OllamaStep status={status} checking={checking} onRecheck={recheck} onKeywordOnly={keywordOnly} />}
        {status && step === 'models' && <ModelsStep status={status} onChanged={recheck} onKeywordOnly={keywordOnly} />}
        {status && step === 'check' && (
          <CheckStep
            onResult={setVerified}
            onNext={() => (hasNotes ? onDone(null) : setProceeded('checked'))}
            nextLabel={hasNotes ? 'Start asking' : 'Next: add your notes'}
          />
        )}
        {status && step === 'notes' && (
          <NotesStep
            keywordOnly={proceeded === 'keyword-only' && status.state !== 'ready'}
            canAnswer={status.documents > 0 ? status.canAnswer : null}
            onSetup={() => setProceeded(null)}
            onDone={onDone}
            onSampleQuestions={onSampleQuestions}
          />
        )}
      </div>
    </div>
  );
}
