import { SetupFlow } from '../features/setup/SetupFlow';

interface FirstRunProps {
  /** First run (the library is empty), or the same steps opened later because Ollama or a model went away. */
  welcome: boolean;
  /** Leave first run; with a question when a suggestion was picked. */
  onDone: (question: string | null) => void;
  onSampleQuestions: (questions: string[]) => void;
}

/** Shown while the library is empty, and when asked for later: what Quire does, and the steps to a first answer. */
export function FirstRun({ welcome, onDone, onSampleQuestions }: FirstRunProps) {
  return (
    <section className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <h1 id="first-run-title">{welcome ? 'Welcome to Quire' : 'Set up Ollama'}</h1>
      <p className="lead">
        {welcome
          ? 'Quire answers questions from a folder of your own notes, offline, on this computer. Every answer cites the passages it came from, and Quire checks that each citation really supports its sentence.'
          : 'Quire answers with models that Ollama runs on this computer. These steps find what is missing and put it right.'}
      </p>
      <SetupFlow onDone={onDone} onSampleQuestions={onSampleQuestions} />
    </section>
  );
}
