import type { SetupStatus } from '../../../../shared/setup';
import { installSteps, KEYWORD_ONLY, setupHeadline, setupSteps } from '../../../../shared/setup-sentences';
import { CheckAgain } from './CheckAgain';
import { KeywordOnlyChoice } from './KeywordOnlyChoice';
import { SetupSentence } from './SetupSentence';

interface OllamaStepProps {
  status: SetupStatus;
  checking: boolean;
  onRecheck: () => void;
  onKeywordOnly: () => void;
}

/** Step 1: Ollama does not answer. What is wrong and what to do on this system (the words `quire setup` uses too), then Check again. */
export function OllamaStep({ status, checking, onRecheck, onKeywordOnly }: OllamaStepProps) {
  const install = installSteps(status.platform);
  // What works without Ollama is said once, beside the button that goes on without it.
  const steps = setupSteps(status).filter((s) => s !== KEYWORD_ONLY);
  return (
    <div className="setup-step" data-testid="setup-ollama">
      <h2 className="setup-step__title">Install and start Ollama</h2>
      <p>Quire answers with language models that Ollama runs on this computer, so your notes stay here.</p>
      <p className="setup-step__state" data-testid="setup-headline">
        {setupHeadline(status)}
      </p>
      {steps.map((s) => (
        <p key={s}>
          <SetupSentence text={s} rich={s === install} />
        </p>
      ))}
      <div className="row setup-step__actions">
        <CheckAgain checking={checking} onCheck={onRecheck} primary />
        <span className="muted small">Quire also checks each time you come back to this window.</span>
      </div>
      <KeywordOnlyChoice onContinue={onKeywordOnly} />
    </div>
  );
}
