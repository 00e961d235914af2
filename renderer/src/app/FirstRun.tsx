import { useState } from 'react';
import { describeError, type DescribedError } from '../api/messages';
import { useClient } from './client';
import { useImportJob } from '../features/import/import-job';
import { ErrorNote } from '../common/ErrorNote';
import { ImportPanel } from '../features/import/ImportPanel';
import { Suggestions } from '../features/ask/Suggestions';

interface FirstRunProps {
  /** Leave first run; with a question when a suggestion was picked. */
  onDone: (question: string | null) => void;
  onSampleQuestions: (questions: string[]) => void;
}

/** Shown while the library is empty: what Quire does, and two ways to start. */
export function FirstRun({ onDone, onSampleQuestions }: FirstRunProps) {
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
  return (
    <section className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <h1 id="first-run-title">Welcome to Quire</h1>
      <p className="lead">
        Quire answers questions from a folder of your own notes, offline, on this computer. Every answer cites the passages it came from, and Quire checks
        that each citation really supports its sentence.
      </p>
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
        <div className="first-run__next">
          {sample && <Suggestions questions={sample} onPick={(q) => onDone(q)} />}
          <button type="button" className="button button--primary" onClick={() => onDone(null)}>
            Start asking
          </button>
        </div>
      )}
    </section>
  );
}
