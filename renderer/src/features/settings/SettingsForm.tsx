import { useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { BOUNDS, DEFAULT_OLLAMA_HOST, SETTINGS } from '../../../../shared/settings';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';

type Settings = Output<'getSettings'>;

/** The form's fields; labels and bounds come from the one settings table (shared/settings.ts). */
const FIELDS: Array<{ key: keyof Settings; label: string; hint: string; type: 'text' | 'number'; min?: number; max?: number }> = [
  { key: 'ollamaHost', label: SETTINGS.ollamaHost.label, hint: `Where Ollama listens, e.g. ${DEFAULT_OLLAMA_HOST}`, type: 'text' },
  { key: 'chatModel', label: SETTINGS.chatModel.label, hint: 'Writes the answers', type: 'text' },
  { key: 'embedModel', label: SETTINGS.embedModel.label, hint: 'Turns passages into vectors for meaning search', type: 'text' },
  { key: 'k', label: SETTINGS.k.label, hint: `${BOUNDS.k.min} to ${BOUNDS.k.max}`, type: 'number', ...BOUNDS.k },
  { key: 'chunkTokens', label: SETTINGS.chunkTokens.label, hint: 'Applies to files imported from now on', type: 'number', ...BOUNDS.chunkTokens },
  { key: 'numCtx', label: SETTINGS.numCtx.label, hint: 'Tokens Ollama reads per request', type: 'number', ...BOUNDS.numCtx },
  { key: 'fusion', label: SETTINGS.fusion.label, hint: 'How keyword and meaning rankings join: rrf:60 (by rank) or weighted:0.3 (30% meaning)', type: 'text' },
];

interface SettingsFormProps {
  settings: Settings;
  onSaved: (before: Settings, after: Settings) => void;
}

/** The editable settings; only changed fields are sent. */
export function SettingsForm({ settings, onSaved }: SettingsFormProps) {
  const client = useClient();
  const [draft, setDraft] = useState<Record<keyof Settings, string>>(() => toDraft(settings));
  const [error, setError] = useState<DescribedError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const patch: Partial<Settings> = {};
    for (const f of FIELDS) {
      const raw = draft[f.key].trim();
      const value = f.type === 'number' ? Number(raw) : raw;
      if (value !== settings[f.key]) (patch as Record<string, unknown>)[f.key] = value;
    }
    setError(null);
    setSaved(false);
    if (Object.keys(patch).length === 0) return setSaved(true);
    setBusy(true);
    try {
      const after = await client.setSettings(patch);
      setDraft(toDraft(after));
      setSaved(true);
      onSaved(settings, after);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card settings-form"
      aria-labelledby="settings-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="settings-title" className="section-title">
        Models and retrieval
      </h2>
      {FIELDS.map((f) => (
        <div className="field" key={f.key}>
          <label htmlFor={`setting-${f.key}`}>{f.label}</label>
          <input
            id={`setting-${f.key}`}
            type={f.type}
            min={f.min}
            max={f.max}
            value={draft[f.key]}
            onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            aria-describedby={`setting-${f.key}-hint`}
            spellCheck={false}
          />
          <span id={`setting-${f.key}-hint`} className="muted small">
            {f.hint}
          </span>
        </div>
      ))}
      <div className="row">
        <button type="submit" className="button button--primary" disabled={busy}>
          Save settings
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
      {error && <ErrorNote error={error} />}
    </form>
  );
}

function toDraft(s: Settings): Record<keyof Settings, string> {
  return { ollamaHost: s.ollamaHost, chatModel: s.chatModel, embedModel: s.embedModel, k: String(s.k), chunkTokens: String(s.chunkTokens), numCtx: String(s.numCtx), fusion: s.fusion };
}
