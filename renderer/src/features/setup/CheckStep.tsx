import { useCallback, useEffect, useRef, useState } from 'react';
import type { SetupVerify } from '../../../../shared/setup';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import { formatDuration } from '../../common/format';
import { CheckRow } from './CheckRow';

interface CheckStepProps {
  /** The check ended: passed or not. */
  onResult: (ok: boolean) => void;
  /** Go on to the next step; after a failed check too, if the person chooses to. */
  onNext: () => void;
  nextLabel: string;
}

/** Under a second reads better in ms: "in 45 ms", "in 2 s". */
function took(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms);
}

/** Step 3: one embedding and one short answer (verifySetup), each check's result, then on. Runs on arrival. */
export function CheckStep({ onResult, onNext, nextLabel }: CheckStepProps) {
  const client = useClient();
  const [result, setResult] = useState<SetupVerify | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [running, setRunning] = useState(false);
  const ticket = useRef(0);
  const next = useRef<HTMLButtonElement>(null);
  const report = useRef(onResult);
  report.current = onResult;

  const run = useCallback(async () => {
    const mine = ++ticket.current;
    setRunning(true);
    setResult(null);
    setError(null);
    try {
      const r = await client.verifySetup({});
      if (mine !== ticket.current) return;
      setResult(r);
      report.current(r.embedding.ok && r.chat.ok);
    } catch (e) {
      if (mine !== ticket.current) return;
      setError(describeError(e));
      report.current(false);
    } finally {
      if (mine === ticket.current) setRunning(false);
    }
  }, [client]);

  useEffect(() => {
    void run();
  }, [run]);

  const passed = result !== null && result.embedding.ok && result.chat.ok;
  useEffect(() => {
    if (passed) next.current?.focus();
  }, [passed]);

  const shown = running ? null : result;
  return (
    <div className="setup-step" data-testid="setup-check">
      <h2 className="setup-step__title">Check that it works</h2>
      <p>Quire asks Ollama for what every question needs: an embedding, then a short answer. The first time, loading the models can take a minute.</p>
      {!error && (
        <ul className="check-rows" aria-live="polite">
          <CheckRow label="Search by meaning" check={shown?.embedding ?? null}>
            {shown && (
              <>
                <span className="mono">{shown.embedding.model}</span> turned a sentence into {shown.embedding.dimension ?? 'its'} numbers in {took(shown.embedding.ms)}.
              </>
            )}
          </CheckRow>
          <CheckRow label="Answers" check={shown?.chat ?? null}>
            {shown && (
              <>
                <span className="mono">{shown.chat.model}</span> answered in {took(shown.chat.ms)}
                {shown.chat.reply ? <>: “{shown.chat.reply.trim()}”</> : '.'}
              </>
            )}
          </CheckRow>
        </ul>
      )}
      {error && <ErrorNote error={error} />}
      {!running && (
        <div className="row setup-step__actions">
          {passed ? (
            <>
              <p className="check-passed">Everything works.</p>
              <button type="button" className="button button--primary" ref={next} onClick={onNext} data-testid="setup-next">
                {nextLabel}
              </button>
            </>
          ) : (
            <>
              <button type="button" className="button button--primary" onClick={() => void run()} data-testid="check-again">
                Check again
              </button>
              <button type="button" className="button" onClick={onNext}>
                Continue anyway
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
