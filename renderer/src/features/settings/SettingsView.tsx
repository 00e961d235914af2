import { useCallback, useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { Settings } from '../../app/settings-store';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useSettings } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import { ModelList } from './ModelList';
import { PullBox } from './PullBox';
import { ReembedBox } from './ReembedBox';
import { SettingsForm } from './SettingsForm';
import { VectorStores } from './VectorStores';

type Model = Output<'listModels'>['models'][number];

/** Settings, installed models, pulling a model, re-embedding after a model switch, and the vectors kept. */
export function SettingsView({ onSetup }: { onSetup?: () => void }) {
  const client = useClient();
  const { settings, error } = useSettings();
  const [models, setModels] = useState<Model[] | null>(null);
  const [modelError, setModelError] = useState<DescribedError | null>(null);
  const [reembed, setReembed] = useState<string | null>(null);
  /** A host just saved: until the model list answers from it, the form says nothing does. */
  const [savedHost, setSavedHost] = useState<string | null>(null);

  /** Only the newest list request's answer is shown: one to a host that does not answer gives up after its retries, seconds after a later one. */
  const latest = useRef(0);
  const loadModels = useCallback(() => {
    const request = ++latest.current;
    client.listModels({}).then(
      (r) => {
        if (request !== latest.current) return;
        setModels(r.models);
        setModelError(null);
      },
      (e: unknown) => {
        if (request !== latest.current) return;
        setModels(null);
        setModelError(describeError(e));
      },
    );
  }, [client]);

  /** What a new chunk size would cut again and re-embed; unknown (null) until status answers. */
  const [indexed, setIndexed] = useState<{ documents: number; chunks: number } | null>(null);
  useEffect(() => {
    client.status({}).then(
      (s) => setIndexed({ documents: s.documents.ready + s.documents.needsEmbedding, chunks: s.chunks }),
      () => setIndexed(null),
    );
    loadModels();
  }, [client, loadModels]);

  const onSaved = (before: Settings, after: Settings) => {
    if (after.embedModel !== before.embedModel) setReembed(after.embedModel);
    if (after.ollamaHost !== before.ollamaHost) setSavedHost(after.ollamaHost);
    // A new host or header (a token replaced keeps its name) may change what Ollama lists.
    loadModels();
  };

  return (
    <div className="settings">
      <header className="settings__head">
        <h1>Settings</h1>
        {onSetup && (
          <button type="button" className="button" onClick={onSetup} data-testid="open-setup">
            Check Ollama and models…
          </button>
        )}
      </header>
      {error && <ErrorNote error={error} />}
      {settings && (
        <SettingsForm
          settings={settings}
          models={models && models.map((m) => m.name)}
          onSaved={onSaved}
          indexed={indexed}
          // Beside Save: the model list's error is far below, and a mistyped host otherwise just says "Saved."
          hostProblem={savedHost !== null && savedHost === settings.ollamaHost && modelError ? `Saved, but nothing answers at ${savedHost}: ${modelError.sentence}` : null}
        />
      )}
      {reembed && <ReembedBox model={reembed} />}
      <ModelList models={models} error={modelError} onRefresh={loadModels} />
      <PullBox onPulled={loadModels} />
      <VectorStores />
    </div>
  );
}
