import { DEFAULT_FUSION, FUSION_KINDS, type FusionKind } from '../../../../shared/fusion';

/**
 * "Hybrid fusion" as a choice of method plus its number, so nobody has to know the `rrf:60` /
 * `weighted:0.3` syntax. The value stays the setting's string (`kind:number`), checked on save by
 * the settings table's schema (parseFusion), as every other field is.
 */
export function FusionField({
  label,
  value,
  onChange,
  error,
  unusedBecause = null,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** The search mode chosen, when it is not hybrid: the fusion then changes nothing, and the field says so. */
  unusedBecause?: string | null;
}) {
  const { kind, number } = splitFusion(value);
  const k = FUSION_KINDS[kind];
  const describedBy = [error ? 'setting-fusion-error' : null, unusedBecause ? 'setting-fusion-unused' : null, 'setting-fusion-hint'].filter(Boolean).join(' ');
  return (
    <div className="field" role="group" aria-labelledby="setting-fusion-label" aria-describedby={describedBy}>
      <span id="setting-fusion-label">{label}</span>
      <div className="row fusion-field">
        <label className="visually-hidden" htmlFor="setting-fusion-kind">
          {label}: method
        </label>
        <select
          id="setting-fusion-kind"
          value={kind}
          onChange={(e) => {
            const next = e.target.value as FusionKind;
            onChange(`${next}:${FUSION_KINDS[next].example}`);
          }}
        >
          {(Object.keys(FUSION_KINDS) as FusionKind[]).map((key) => (
            <option key={key} value={key}>
              {FUSION_KINDS[key].label}
            </option>
          ))}
        </select>
        <label htmlFor="setting-fusion-number" className="small">
          {k.number}
        </label>
        <input
          id="setting-fusion-number"
          type="number"
          min={k.min}
          max={k.max}
          step={k.step}
          value={number}
          onChange={(e) => onChange(`${kind}:${e.target.value}`)}
          aria-describedby={describedBy}
          {...(error ? { 'aria-invalid': true } : {})}
        />
      </div>
      {error && (
        <span id="setting-fusion-error" className="small field__error">
          {error}
        </span>
      )}
      {unusedBecause && (
        <span id="setting-fusion-unused" className="small" role="note" data-testid="fusion-unused">
          Used only by hybrid search: with the search mode “{unusedBecause}” it changes nothing.
        </span>
      )}
      <span id="setting-fusion-hint" className="muted small">
        {kind === 'rrf'
          ? `Joins keyword and meaning rankings by rank alone: each adds 1/(k + rank), so a weak embedding model counts as much as keywords. k from ${k.min} to ${k.max}; ${FUSION_KINDS.rrf.example} is usual.`
          : `Adds the two scores, each scaled to 0–1 for the question, the meaning score counting for w of the whole: from ${k.min} to ${k.max} (the default, ${FUSION_KINDS.weighted.example}, is ${Math.round(FUSION_KINDS.weighted.example * 100)}% meaning; more suits a strong embedding model).`}
      </span>
    </div>
  );
}

/** The stored spec's method and number as typed; a spec the form cannot read shows as the default method with its number empty. */
export function splitFusion(value: string): { kind: FusionKind; number: string } {
  const m = /^\s*(rrf|weighted)(?::\s*(.*))?$/i.exec(value);
  if (!m) return { kind: DEFAULT_FUSION.kind, number: '' };
  const kind = m[1]!.toLowerCase() as FusionKind;
  return { kind, number: m[2] === undefined ? (kind === 'rrf' ? String(FUSION_KINDS.rrf.example) : '') : m[2].trim() };
}
