import { STEPS, type StepId } from './setup-steps';

interface SetupStepsProps {
  current: StepId | null;
  done: ReadonlySet<StepId>;
}

/** The four steps to a first answer: the current one marked, the done ones ticked. */
export function SetupSteps({ current, done }: SetupStepsProps) {
  return (
    <ol className="setup-steps" aria-label="Steps to your first answer">
      {STEPS.map((step, i) => {
        const isDone = done.has(step.id);
        const isCurrent = step.id === current;
        const classes = ['setup-steps__item', isCurrent ? 'setup-steps__item--current' : '', isDone ? 'setup-steps__item--done' : ''].filter(Boolean).join(' ');
        return (
          <li key={step.id} className={classes} aria-current={isCurrent ? 'step' : undefined} data-step={step.id} data-done={isDone ? '' : undefined}>
            <span className="setup-steps__mark" aria-hidden="true">
              {isDone ? '✓' : i + 1}
            </span>
            <span className="setup-steps__text">
              <span className="setup-steps__label">{step.label}</span>
              <span className="setup-steps__hint">{step.hint}</span>
            </span>
            {isDone && <span className="visually-hidden"> (done)</span>}
          </li>
        );
      })}
    </ol>
  );
}
