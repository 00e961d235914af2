import { useEffect, useRef, useState } from 'react';
import { KEYWORD_ONLY } from '../../../../shared/setup-sentences';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import { Suggestions } from '../ask/Suggestions';
import { useImportJob } from '../import/import-job';
import { ImportPanel } from '../import/ImportPanel';

interface NotesStepProps {
  /** Reached without Ollama: say that only keyword search will work, and offer the way back. */
  keywordOnly: boolean;
  /** From setupStatus once the notes are in; null while unknown. */
  canAnswer: boolean | null;
  onSetup: () => void;
  /** Leave first run; with a question when a suggestion was picked. */
  onDone: (question: string | null) => void;
  onSampleQuestions: (questions: string[]) => void;
}

/** Step 4: import a folder or the sample notes, then the first question (or keyword search, when no answer can be given). */
export function NotesStep({ keywordOnly, canAnswer, onSetup, onDone, onSampleQuestions }: NotesStepProps) {
  const client = useClient();
  const job = useImportJob();
  const [sample, setSample] = useState<string[] | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  const trySample = async () => {
    setError(null);
    try {
      const notes = await client.sampleNotes({});
      setSample(notes.questions);
      onSampleQuestions(notes.questions);
      await job.start(notes.path);
    } catch (e) {
      setError(describeError(e));
    }
  };

  // The desktop shell opens the system's folder dialog; browser mode has none, so the button
  // takes you to the path field instead.
  const chooseFolder = async () => {
    setSample(null);
    const picked = await client.chooseFolder({}).catch(() => null);
    if (picked?.supported) {
      if (picked.path) await job.start(picked.path);
      return;
    }
    document.getElementById('import-path')?.focus();
  };

  const finished = job.report !== null && !job.running;
  // The first question is what comes next: bring it into view below the import's summary.
  const next = useRef<HTMLDivElement>(null);
  // Again once it is known whether questions can be answered: the suggestions then push it down.
  useEffect(() => {
    if (finished) next.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [finished, canAnswer]);
  return (
    <div className="setup-step" data-testid="setup-notes">
      <h2 className="setup-step__title">Add your notes</h2>
      {keywordOnly && (
        <div className="setup-keyword-only" role="note">
          <p>{KEYWORD_ONLY}</p>
          <button type="button" className="button button--small" onClick={onSetup}>
            Set up Ollama
          </button>
        </div>
      )}
      <p>Choose a folder of notes, or try Quire on a few sample notes first. Quire reads them into its own index and never changes them.</p>
      <div className="row">
        <button type="button" className="button button--primary" onClick={() => void chooseFolder()} disabled={job.running}>
          Import a folder…
        </button>
        <button type="button" className="button" onClick={() => void trySample()} disabled={job.running}>
          Try the sample notes
        </button>
      </div>
      {error && <ErrorNote error={error} />}
      <div className="card first-run__import">
        <ImportPanel job={job} />
      </div>
      {finished && (
        <div className="first-run__next" ref={next}>
          {sample && <Suggestions questions={sample} canAnswer={canAnswer} onPick={(q) => onDone(q)} onSetup={onSetup} />}
          <button type="button" className="button button--primary" onClick={() => onDone(null)} data-testid="start-asking">
            {canAnswer === false ? 'Start searching' : 'Start asking'}
          </button>
        </div>
      )}
    </div>
  );
}
