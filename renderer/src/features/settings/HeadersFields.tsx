import type { Output } from '../../../../shared/contract';
import { OLLAMA_HEADERS } from '../../../../shared/settings';

type Saved = Output<'getSettings'>['ollamaHeaders'];
type Storage = Output<'getSettings'>['ollamaHeaderStorage'];

/** A header to add (its value typed once, never shown again) and saved headers to remove, by name. */
export interface HeadersDraft {
  name: string;
  value: string;
  remove: readonly string[];
}

export const EMPTY_HEADERS: HeadersDraft = { name: '', value: '', remove: [] };

/** The draft as setSettings' write-only ollamaHeaders (a value sets, null removes), or null when unchanged. */
export function headersPatch(d: HeadersDraft): Record<string, string | null> | null {
  const patch: Record<string, string | null> = Object.fromEntries(d.remove.map((n) => [n, null]));
  if (d.name.trim() !== '') patch[d.name.trim()] = d.value.trim();
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * Request headers for a shared Ollama behind a proxy (e.g. Authorization: Bearer …). The engine
 * never returns a value, so a saved header shows as its name and dots; it can be replaced or removed.
 * One saved here whose value cannot be opened (sealed by the desktop app, seen in browser mode; or
 * damaged) says so; how values are kept at rest is the engine's sentence, shown under the fields.
 */
export function HeadersFields({ saved, storage, draft, onChange }: { saved: Saved; storage: Storage; draft: HeadersDraft; onChange: (d: HeadersDraft) => void }) {
  return (
    <div className="field settings-headers" role="group" aria-labelledby="setting-headers-label" aria-describedby="setting-headers-hint setting-headers-storage">
      <span id="setting-headers-label">{OLLAMA_HEADERS.label}</span>
      <div>
        {saved.length > 0 && (
          <ul data-testid="saved-headers">
            {saved.map((h) => (
              <li key={`${h.source}:${h.name}`}>
                <span className="mono">{h.name}: ••••••</span>{' '}
                {h.unreadable && (
                  <p className="warning small" role="note">
                    {h.unreadable}
                  </p>
                )}
                {h.source === 'environment' ? (
                  <span className="muted small">(from {OLLAMA_HEADERS.env})</span>
                ) : (
                  <label className="small">
                    <input
                      type="checkbox"
                      checked={draft.remove.includes(h.name)}
                      onChange={(e) => onChange({ ...draft, remove: e.target.checked ? [...draft.remove, h.name] : draft.remove.filter((n) => n !== h.name) })}
                    />{' '}
                    remove
                  </label>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="row">
          <input type="text" aria-label="Header name" placeholder="Authorization" value={draft.name} spellCheck={false} autoComplete="off" onChange={(e) => onChange({ ...draft, name: e.target.value })} />
          <input aria-label="Header value" placeholder="Bearer …" type="password" value={draft.value} autoComplete="off" onChange={(e) => onChange({ ...draft, value: e.target.value })} />
        </div>
      </div>
      <span id="setting-headers-hint" className="muted small">
        Sent with every request to Ollama, e.g. for a proxy in front of a shared server. Values are never shown again.
      </span>
      <p id="setting-headers-storage" data-testid="header-storage" className={storage.sealed ? 'muted small' : 'warning small'}>
        {storage.detail}
      </p>
    </div>
  );
}
