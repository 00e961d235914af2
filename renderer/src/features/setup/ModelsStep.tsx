import { useState } from 'react';
import type { SetupStatus } from '../../../../shared/setup';
import { describeError, type DescribedError } from '../../api/messages';
import { useSettingsStore } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import { formatSize } from '../../../../shared/setup-models';
import { setupHeadline } from '../../../../shared/setup-sentences';
import { KeywordOnlyChoice } from './KeywordOnlyChoice';
import { ModelCard } from './ModelCard';
import { downloadBytes, modelsToPull, pullItem } from './models-to-pull';
import { PullProgress } from './PullProgress';
import { usePullQueue, type PullItem } from './pull-queue';

interface ModelsStepProps {
  status: SetupStatus;
  onChanged: () => void;
  onKeywordOnly: () => void;
}

/** Step 2: Ollama runs; the two models it needs, downloaded here with progress, or one already installed chosen instead. */
export function ModelsStep({ status, onChanged, onKeywordOnly }: ModelsStepProps) {
  const settings = useSettingsStore();
  const [saveError, setSaveError] = useState<DescribedError | null>(null);
  const [saving, setSaving] = useState(false);

  /** Settings take `name` for this kind of model (a download of another name than theirs, or one chosen from those installed). */
  const choose = async (kind: PullItem['kind'], name: string) => {
    setSaveError(null);
    setSaving(true);
    try {
      await settings.save(kind === 'chat' ? { chatModel: name } : { embedModel: name });
    } catch (e) {
      setSaveError(describeError(e));
    } finally {
      setSaving(false);
      onChanged();
    }
  };
  // The engine saved the model as the setting: the views that show Settings read them again.
  const pulls = usePullQueue(async () => {
    onChanged();
    await settings.refresh().catch(() => {});
  });

  const missing = modelsToPull(status);
  const bytes = downloadBytes(missing);
  const free = status.machine.freeDiskBytes;
  const busy = pulls.running || saving;
  return (
    <div className="setup-step" data-testid="setup-models">
      <h2 className="setup-step__title">{missing.length > 1 ? 'Download two models' : 'Download one more model'}</h2>
      <p className="setup-step__state" data-testid="setup-headline">
        {setupHeadline(status)}
      </p>
      <p>Quire needs the two models below; these suit this computer, and Settings can change them later.</p>
      <ul className="model-cards">
        {(['embedding', 'chat'] as const).map((kind) => (
          <ModelCard
            key={kind}
            kind={kind}
            model={status[kind]}
            busy={busy}
            onPull={() => pulls.start([pullItem(status, kind)])}
            onUse={(name) => void choose(kind, name)}
          />
        ))}
      </ul>
      {missing.length > 1 && !pulls.running && (
        <div className="row setup-step__actions">
          <button type="button" className="button button--primary" onClick={() => pulls.start(missing)} disabled={busy} data-testid="pull-all">
            Download both{bytes !== null ? ` (${formatSize(bytes)})` : ''}
          </button>
        </div>
      )}
      {bytes !== null && free !== null && bytes > free && (
        <p className="warning">
          These downloads need {formatSize(bytes)}, and only {formatSize(free)} is free on the disk where Ollama keeps its models.
        </p>
      )}
      {pulls.current && <PullProgress name={pulls.current.item.name} n={pulls.current.n} of={pulls.current.of} progress={pulls.progress} onCancel={pulls.cancel} />}
      {pulls.cancelled && <p role="status">Download cancelled.</p>}
      {pulls.error && <ErrorNote error={pulls.error} />}
      {saveError && <ErrorNote error={saveError} />}
      <KeywordOnlyChoice onContinue={onKeywordOnly} />
    </div>
  );
}
