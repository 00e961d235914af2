import { useMemo, useState } from 'react';
import { OLLAMA_ERROR_CODES } from '../../../../shared/errors';
import type { EvalReport } from '../../../../shared/eval';
import { configAsSettings, settingValueText, type ConfigAsSettings, type SettingChange } from '../../../../shared/eval-settings';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useSettingsStore } from '../../app/client';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ErrorNote } from '../../common/ErrorNote';
import { ReembedBox } from '../settings/ReembedBox';
import { changeNotes, configChoices, vectorsComplete, type IndexFacts } from './apply-config';


interface UseConfigurationProps {
  report: EvalReport;
  /** Configurations where every question run failed: they measured nothing and are not offered. */
  failed: ReadonlySet<number>;
}

/** The change under review: the configuration's settings against the saved ones, and what it will cost. */
interface Review extends ConfigAsSettings {
  label: string;
  notes: string[];
  /** The new embedding model when its vectors still have to be computed (Re-embed is offered once saved). */
  reembed: string | null;
}

type Outcome = { kind: 'saved'; changes: SettingChange[]; reembed: string | null; recut: boolean } | { kind: 'same'; notApplied: string[] };

/**
 * "Use these settings": makes the app answer and search as one configuration of the report did.
 * Two steps, so it is never done by a stray click: the button reads the saved settings and shows
 * each one that would change (old → new), with what it costs (vectors computed again, documents
 * cut again) and what cannot be a setting; only the dialog's confirmation saves, through the settings
 * store (so every view shows the new settings at once).
 */
export function UseConfiguration({ report, failed }: UseConfigurationProps) {
  const client = useClient();
  const settingsStore = useSettingsStore();
  const { choices, preferred } = useMemo(() => configChoices(report, failed), [report, failed]);
  const [chosen, setChosen] = useState<number | null>(preferred);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<Review | null>(null);
  /** A save that was refused, kept so "Use anyway" sends exactly what was reviewed. */
  const [refused, setRefused] = useState<Review | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  if (report.configs.length === 0) return null;
  const config = chosen === null ? null : report.configs[chosen];

  const reviewChange = async () => {
    if (!config || chosen === null) return;
    setLoading(true);
    setError(null);
    setOutcome(null);
    setRefused(null);
    try {
      // Read afresh, not the copy views show: the dialog's "Now" column must be what is saved.
      const [settings, facts] = await Promise.all([settingsStore.refresh(), indexFacts()]);
      const mapped = configAsSettings(config, settings);
      if (mapped.changes.length === 0) return setOutcome({ kind: 'same', notApplied: mapped.notApplied });
      const embed = mapped.changes.find((c) => c.key === 'embedModel');
      const notes = changeNotes(mapped.changes, facts);
      const reembed = embed && facts && facts.documents > 0 && !vectorsComplete(facts, String(embed.to)) ? String(embed.to) : null;
      setReview({ ...mapped, label: choices.find((c) => c.index === chosen)?.config ?? '', notes, reembed });
    } catch (e) {
      setError(describeError(e));
    } finally {
      setLoading(false);
    }
  };

  /** What the index holds, for the cost of the change; null when it cannot be read (the change is still offered). */
  const indexFacts = async (): Promise<IndexFacts | null> => {
    try {
      const [status, stores] = await Promise.all([client.status({}), client.vectorStores({})]);
      return { documents: status.documents.ready + status.documents.needsEmbedding, chunks: status.chunks, activeModel: status.activeModel?.name ?? null, stores: stores.stores };
    } catch {
      return null;
    }
  };

  const apply = async (r: Review, force: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await settingsStore.save({ ...r.patch, ...(force ? { force: true } : {}) });
      setOutcome({ kind: 'saved', changes: r.changes, reembed: r.reembed, recut: r.changes.some((c) => c.key === 'chunkTokens') });
      setRefused(null);
    } catch (e) {
      setError(describeError(e));
      setRefused(r);
    } finally {
      setBusy(false);
      setReview(null);
    }
  };

  return (
    <section className="card eval-apply" data-testid="eval-apply" aria-labelledby="eval-apply-title">
      <h3 id="eval-apply-title" className="section-title">
        Use a configuration in Quire
      </h3>
      {choices.length === 0 ? (
        <p className="muted small">Every question run of every configuration failed, so none of them can be recommended.</p>
      ) : (
        <>
          <p className="muted small eval-apply__lead">Answers and passage searches then work as that configuration did here. You see what changes before anything is saved.</p>
          <div className="row">
            <label htmlFor="eval-apply-config">Configuration</label>
            <select
              id="eval-apply-config"
              className="eval-apply__select"
              value={chosen ?? ''}
              onChange={(e) => {
                setChosen(Number(e.target.value));
                setOutcome(null);
                setError(null);
                setRefused(null);
              }}
            >
              {choices.map((c) => (
                <option key={c.index} value={c.index}>
                  {c.label}
                </option>
              ))}
            </select>
            <button type="button" className="button" onClick={() => void reviewChange()} disabled={loading || chosen === null} data-testid="eval-apply-review">
              Use these settings…
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'same' && (
        <div role="status" data-testid="eval-apply-same">
          <p className="small">Your settings already match this configuration: nothing to change.</p>
          {outcome.notApplied.map((n) => (
            <p key={n} className="muted small">
              {n}
            </p>
          ))}
        </div>
      )}
      {outcome?.kind === 'saved' && (
        <>
          <p role="status" className="small eval-apply__saved" data-testid="eval-apply-saved">
            Saved: {outcome.changes.map((c) => `${c.label} is now ${settingValueText(c.key, c.to)}`).join('; ')}.
            {outcome.recut && ' Re-sync each folder in the Library to cut its documents at the new size.'}
          </p>
          {outcome.reembed && <ReembedBox model={outcome.reembed} />}
        </>
      )}
      {error && <ErrorNote error={error} />}
      {error && refused && OLLAMA_ERROR_CODES.has(error.code) && (
        <p className="row">
          <span className="muted small">Nothing was saved. For a model you will pull later:</span>
          <button type="button" className="button" disabled={busy} onClick={() => void apply(refused, true)}>
            Use anyway
          </button>
        </p>
      )}
      {review && (
        <ConfirmDialog title="Use these settings?" confirmLabel="Use these settings" tone="primary" wide busy={busy} onCancel={() => setReview(null)} onConfirm={() => void apply(review, false)}>
          <p className="small">
            From the configuration <span className="mono">{review.label}</span>, these settings change:
          </p>
          <table className="table eval-apply__changes" data-testid="eval-apply-changes">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Now</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {review.changes.map((c) => (
                <tr key={c.key} data-setting={c.key}>
                  <th scope="row">{c.label}</th>
                  <td className="mono">{settingValueText(c.key, c.from)}</td>
                  <td className="mono">→ {settingValueText(c.key, c.to)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {review.notes.map((n) => (
            <p key={n} className="warning small" data-testid="eval-apply-note">
              {n}
            </p>
          ))}
          {review.notApplied.map((n) => (
            <p key={n} className="muted small" data-testid="eval-apply-not-applied">
              {n}
            </p>
          ))}
          <p className="muted small">Everything else stays as it is; Settings can change any of it back.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
