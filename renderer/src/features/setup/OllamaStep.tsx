import type { SetupStatus } from '../../../../shared/setup';
import { ollamaNotRunning } from '../../../../shared/ollama-state';
import { describeError } from '../../api/messages';
import { CommandBlock } from '../../common/CommandBlock';
import { ErrorNote } from '../../common/ErrorNote';
import { InlineCode } from '../../common/InlineCode';
import { CheckAgain } from './CheckAgain';
import { KeywordOnlyChoice } from './KeywordOnlyChoice';
import { ollamaAdvice } from './ollama-advice';

interface OllamaStepProps {
  status: SetupStatus;
  checking: boolean;
  onRecheck: () => void;
  onKeywordOnly: () => void;
}

const HOST_SOURCE: Record<SetupStatus['ollama']['hostSource'], string | null> = {
  saved: 'the address saved in Settings',
  environment: 'the address OLLAMA_HOST gives',
  default: null,
};

/** Step 1: Ollama does not answer. How to install or start it on this system, then Check again. */
export function OllamaStep({ status, checking, onRecheck, onKeywordOnly }: OllamaStepProps) {
  const { ollama } = status;
  const advice = ollamaAdvice(status.platform);
  const notRunning = ollamaNotRunning({ connected: false, errorCode: ollama.error?.code ?? null });
  const source = HOST_SOURCE[ollama.hostSource];
  return (
    <div className="setup-step" data-testid="setup-ollama">
      <h2 className="setup-step__title">Install and start Ollama</h2>
      <p>
        Quire answers with language models that Ollama runs on this computer, so your notes never leave it. Ollama is not answering at{' '}
        <span className="mono">{ollama.host}</span>
        {source ? `, ${source}` : ''}.
      </p>
      {notRunning ? (
        <>
          {advice.sentences.map((s) => (
            <p key={s}>
              <InlineCode text={s} />
            </p>
          ))}
          {advice.command && <CommandBlock command={advice.command.text} label={advice.command.label} />}
          {advice.link && (
            <p>
              <a href={advice.link.href} target="_blank" rel="noopener noreferrer" className="button button--link">
                {advice.link.text} ↗
              </a>
            </p>
          )}
        </>
      ) : (
        ollama.error && <ErrorNote error={describeError(ollama.error)} />
      )}
      {source && <p className="muted small">If Ollama runs on another computer, correct its address in Settings.</p>}
      <div className="row setup-step__actions">
        <CheckAgain checking={checking} onCheck={onRecheck} primary />
        <span className="muted small">Quire also checks each time you come back to this window.</span>
      </div>
      <KeywordOnlyChoice onContinue={onKeywordOnly} />
    </div>
  );
}
