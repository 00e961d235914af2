import { useState } from 'react';
import { OLLAMA_ERROR_CODES } from '../../../../shared/errors';
import type { Input } from '../../../../shared/contract';
import { BOUNDS, DEFAULT_OLLAMA_HOST, SETTINGS } from '../../../../shared/settings';
import { describeError, type DescribedError } from '../../api/messages';
import { useSettingsStore } from '../../app/client';
import type { Settings } from '../../app/settings-store';
import { ErrorNote } from '../../common/ErrorNote';
import { recutSentence } from '../../common/recut';
import { FusionField, splitFusion } from './FusionField';
import { FUSION_KINDS, fusionNumberRule } from '../../../../shared/fusion';
import { SEARCH_MODE_LABELS, SEARCH_MODES, type SearchMode } from '../../../../shared/search';
import { EMPTY_HEADERS, HeadersFields, headersPatch, type HeadersDraft } from './HeadersFields';

type Field = keyof typeof SETTINGS & Exclude<keyof Settings, 'ollamaHeaders' | 'ollamaHeaderStorage'>;


/** The form's fields; labels and bounds come from the one settings table (shared/settings.ts). */
const FIELDS: Array<{ key: Field; label: string; hint: string; type: 'text' | 'number' | 'fusion' | 'choice'; min?: number; max?: number; models?: true; options?: ReadonlyArray<{ value: string; label: string }> }> = [
  { key: 'ollamaHost', label: SETTINGS.ollamaHost.label, hint: `Where Ollama listens, e.g. ${DEFAULT_OLLAMA_HOST}, or a shared server (an https address)`, type: 'text' },
  { key: 'chatModel', label: SETTINGS.chatModel.label, hint: 'Writes the answers; pick an installed model or type one', type: 'text', models: true },
  { key: 'embedModel', label: SETTINGS.embedModel.label, hint: 'Turns passages into vectors for meaning search', type: 'text', models: true },
  { key: 'k', label: SETTINGS.k.label, hint: `${BOUNDS.k.min} to ${BOUNDS.k.max}`, type: 'number', ...BOUNDS.k },
  {
    key: 'searchMode',
    label: SETTINGS.searchMode.label,
    hint: 'How answers and passage searches find passages. Choose keyword only when your embedding model is weak or your questions use your notes’ own words: an evaluation (Evaluate) shows which ranks better on your notes. Without vectors every mode searches by keyword, and says so.',
    type: 'choice',
    options: SEARCH_MODES.map((m) => ({ value: m, label: SEARCH_MODE_LABELS[m] })),
  },
  // A method and its number (FusionField), stored as the setting's string.
  { key: 'fusion', label: SETTINGS.fusion.label, hint: '', type: 'fusion' },
  { key: 'chunkTokens', label: SETTINGS.chunkTokens.label, hint: 'Used by the next import or Re-sync of a folder: all its files are cut again and re-embedded', type: 'number', ...BOUNDS.chunkTokens },
  { key: 'numCtx', label: SETTINGS.numCtx.label, hint: 'Tokens Ollama reads per request', type: 'number', ...BOUNDS.numCtx },
  { key: 'denseQuantizeAbove', label: SETTINGS.denseQuantizeAbove.label, hint: 'Above this many chunks, meaning search scans compact sign bits first, then rescores exactly', type: 'number', ...BOUNDS.denseQuantizeAbove },
  { key: 'embedBatchesInFlight', label: SETTINGS.embedBatchesInFlight.label, hint: 'Batches sent to Ollama at once while importing; 2 keeps it busy while the next files are read', type: 'number', ...BOUNDS.embedBatchesInFlight },
  { key: 'maxFileMb', label: SETTINGS.maxFileMb.label, hint: 'Larger files are skipped and listed with their size; a skipped file is read at the next import or Re-sync', type: 'number', ...BOUNDS.maxFileMb },
];

interface SettingsFormProps {
  settings: Settings;
  /** The installed models' names, offered in the model fields (null: Ollama could not be asked). */
  models: string[] | null;
  onSaved: (before: Settings, after: Settings) => void;
  /** The Ollama host just saved does not answer: said beside Save. */
  hostProblem?: string | null;
  /** What the index holds, for the cost of a new chunk size (null: not known). */
  indexed?: { documents: number; chunks: number } | null;
}

/**
 * The editable settings; only changed fields are sent. A field shows what was typed in it, else
 * the saved value: `settings` can change while the form is open (a save made elsewhere, read again
 * by the settings store), and a field nobody touched follows it rather than sending its old value back.
 */
export function SettingsForm({ settings, models, onSaved, hostProblem = null, indexed = null }: SettingsFormProps) {
  const store = useSettingsStore();
  const [edits, setEdits] = useState<Partial<Record<Field, string>>>({});
  const draft: Record<Field, string> = { ...toDraft(settings), ...edits };
  const edit = (key: Field, value: string) => setEdits((e) => ({ ...e, [key]: value }));
  const [headers, setHeaders] = useState<HeadersDraft>(EMPTY_HEADERS);
  const [error, setError] = useState<DescribedError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Each changed field the settings table refuses, with its sentence, shown at the field. */
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});

  const save = async (force: boolean) => {
    const patch: Input<'setSettings'> = {};
    const refused: Partial<Record<Field, string>> = {};
    for (const f of FIELDS) {
      const raw = draft[f.key].trim();
      const value = f.type === 'number' ? Number(raw) : raw;
      if (value === settings[f.key]) continue;
      // The table's own check, here, so the sentence lands at its field (the engine checks again).
      const checked = SETTINGS[f.key].schema.safeParse(value);
      if (!checked.success) {
        const message = checked.error.issues[0]?.message ?? 'not accepted';
        refused[f.key] = f.type === 'fusion' ? fusionRefusal(f.label, raw) : message.startsWith(f.label) ? message : `${f.label}: ${message}`;
      }
      (patch as Record<string, unknown>)[f.key] = value;
    }
    const headerPatch = headersPatch(headers);
    if (headerPatch) patch.ollamaHeaders = headerPatch;
    setError(null);
    setSaved(false);
    setInvalid(refused);
    if (Object.keys(refused).length > 0) return;
    if (Object.keys(patch).length === 0) return setSaved(true);
    setBusy(true);
    try {
      const after = await store.save(force ? { ...patch, force: true } : patch);
      setEdits({});
      setHeaders(EMPTY_HEADERS); // the value typed is gone from the page once saved
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
      // The settings table's own sentences, at each field, rather than the browser's bubble for numbers only.
      noValidate
      aria-labelledby="settings-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save(false);
      }}
    >
      <h2 id="settings-title" className="section-title">
        Models and retrieval
      </h2>
      {FIELDS.map((f) =>
        f.type === 'fusion' ? (
          <FusionField
            key={f.key}
            label={f.label}
            value={draft[f.key]}
            onChange={(value) => edit(f.key, value)}
            error={invalid[f.key]}
            // Only hybrid search fuses: said where the choice is made, so nobody tunes a number that does nothing.
            unusedBecause={draft.searchMode !== 'hybrid' ? SEARCH_MODE_LABELS[draft.searchMode as SearchMode] ?? draft.searchMode : null}
          />
        ) : f.type === 'choice' ? (
          <div className="field" key={f.key}>
            <label htmlFor={`setting-${f.key}`}>{f.label}</label>
            <select
              id={`setting-${f.key}`}
              value={draft[f.key]}
              onChange={(e) => edit(f.key, e.target.value)}
              aria-describedby={invalid[f.key] ? `setting-${f.key}-error setting-${f.key}-hint` : `setting-${f.key}-hint`}
              {...(invalid[f.key] ? { 'aria-invalid': true } : {})}
            >
              {(f.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <FieldNotes id={`setting-${f.key}`} error={invalid[f.key]} hint={f.hint} />
          </div>
        ) : (
          <div className="field" key={f.key}>
            <label htmlFor={`setting-${f.key}`}>{f.label}</label>
            <input
              id={`setting-${f.key}`}
              type={f.type}
              min={f.min}
              max={f.max}
              value={draft[f.key]}
              onChange={(e) => edit(f.key, e.target.value)}
              aria-describedby={invalid[f.key] ? `setting-${f.key}-error setting-${f.key}-hint` : `setting-${f.key}-hint`}
              {...(invalid[f.key] ? { 'aria-invalid': true } : {})}
              spellCheck={false}
              {...(f.models ? { list: 'installed-models', autoComplete: 'off' } : {})}
            />
            <FieldNotes id={`setting-${f.key}`} error={invalid[f.key]} hint={f.hint} />
            {f.key === 'chunkTokens' && <RecutCost draft={draft.chunkTokens} saved={settings.chunkTokens} indexed={indexed} />}
          </div>
        ),
      )}
      <datalist id="installed-models">
        {(models ?? []).map((m) => (
          <option key={m} value={m.replace(/:latest$/, '')} />
        ))}
      </datalist>
      <HeadersFields saved={settings.ollamaHeaders} storage={settings.ollamaHeaderStorage} draft={headers} onChange={setHeaders} />
      <div className="row">
        <button type="submit" className="button button--primary" disabled={busy}>
          Save settings
        </button>
        {saved && !hostProblem && <span role="status">Saved.</span>}
      </div>
      {saved && hostProblem && (
        <p className="warning" role="status" data-testid="host-unanswered">
          {hostProblem}
        </p>
      )}
      {Object.keys(invalid).length > 0 && (
        <p className="error-note" role="alert">
          Nothing was saved: {Object.keys(invalid).length === 1 ? '1 setting needs' : `${Object.keys(invalid).length} settings need`} a correction.
        </p>
      )}
      {error && <ErrorNote error={error} />}
      {error && OLLAMA_ERROR_CODES.has(error.code) && (
        <p className="row">
          <span className="muted small">Nothing was saved. For a model you will pull later:</span>
          <button type="button" className="button" disabled={busy} onClick={() => void save(true)}>
            Save anyway
          </button>
        </p>
      )}
    </form>
  );
}

function toDraft(s: Settings): Record<Field, string> {
  return Object.fromEntries(FIELDS.map((f) => [f.key, String(s[f.key])])) as Record<Field, string>;
}

/** The form offers a method and a number, so a refusal names the number, not the spec's syntax. */
function fusionRefusal(label: string, spec: string): string {
  const { kind } = splitFusion(spec);
  return `${label}: ${FUSION_KINDS[kind].number} takes ${fusionNumberRule(kind)}`;
}

/** Before a new chunk size is saved: how much its next Re-sync cuts again and sends to the embedding model. */
function RecutCost({ draft, saved, indexed }: { draft: string; saved: number; indexed: { documents: number; chunks: number } | null }) {
  const value = Number(draft.trim());
  if (!indexed || indexed.documents === 0 || draft.trim() === '' || value === saved || !SETTINGS.chunkTokens.schema.safeParse(value).success) return null;
  return (
    <span className="small" role="note" data-testid="recut-cost">
      {recutSentence(indexed)}
    </span>
  );
}

/** A field's refusal (when it has one) and its hint, with the ids its input's aria-describedby names. */
function FieldNotes({ id, error, hint }: { id: string; error: string | undefined; hint: string }) {
  return (
    <>
      {error && (
        <span id={`${id}-error`} className="small field__error">
          {error}
        </span>
      )}
      <span id={`${id}-hint`} className="muted small">
        {hint}
      </span>
    </>
  );
}
