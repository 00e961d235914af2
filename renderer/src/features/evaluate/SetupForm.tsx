import { useEffect, useMemo, useState } from 'react';
import type { Input } from '../../../../shared/contract';
import { SEARCH_MODES, type SearchMode } from '../../../../shared/search';
import { DEFAULT_FUSION, formatFusion } from '../../../../shared/fusion';
import type { DescribedError } from '../../api/messages';
import { setKey, type DraftUpdate, type SetupDraft } from './eval-session';
import { useEvalSetupData, type Model } from './eval-setup-data';
import type { Settings } from '../../app/settings-store';
import { CHUNKER_PRESETS, LIMITS, MODE_LABELS, checkGrid, looksLikeEmbedding, resolveModel, type GridDraft } from './eval-grid';
import { ErrorNote } from '../../common/ErrorNote';
import { CheckList, type CheckOption } from './CheckList';
import { QuestionSetPicker, questionCount, unusableReason } from './QuestionSetPicker';
import { RunEstimate } from './RunEstimate';

interface SetupFormProps {
  draft: SetupDraft | null;
  onDraft: (update: DraftUpdate) => void;
  running: boolean;
  onStart: (input: Input<'startEval'>) => void;
  /** Why the engine refused the last start. */
  startError: DescribedError | null;
  /** Changes when saved questions change, so the "Saved from answers" counts reload. */
  savedVersion: number;
}

/** The grid a first visit starts from: the settings' models (as installed names) and retrieval. */
export function defaultGrid(settings: Settings | null, installed: readonly string[]): GridDraft {
  return {
    chatModels: settings ? [resolveModel(settings.chatModel, installed)] : [],
    retrievalOnly: false,
    embedModels: settings ? [resolveModel(settings.embedModel, installed)] : [],
    chunkers: ['heading:256'],
    customChunkers: '',
    ks: settings ? String(settings.k) : '5',
    fusions: settings ? settings.fusion : formatFusion(DEFAULT_FUSION),
    modes: ['hybrid'],
    repeats: '1',
  };
}

/** Whether a model embeds: as Ollama says, else (an Ollama that lists no capabilities) as its name suggests. */
function isEmbeddingModel(m: Model): boolean {
  return m.capabilities ? m.capabilities.includes('embedding') : looksLikeEmbedding(m.name);
}

/** Model names offered for one list: the matching installed models, the default, and whatever is already chosen. */
export function modelOptions(models: Model[] | null, showAll: boolean, embedding: boolean, keep: readonly string[]): CheckOption[] {
  const names = (models ?? []).filter((m) => showAll || isEmbeddingModel(m) === embedding).map((m) => m.name);
  for (const k of keep) if (!names.includes(k)) names.push(k);
  const installed = new Set((models ?? []).map((m) => m.name));
  return names.map((n) => ({ value: n, label: <span className="mono">{n}</span>, ...(models && !installed.has(n) ? { note: 'not installed' } : {}) }));
}

/** What to compare: the folder, its questions, and the grid of models and retrieval settings. */
export function SetupForm({ draft, onDraft, running, onStart, startError, savedVersion }: SetupFormProps) {
  const collectionId = draft?.collectionId ?? null;
  const { collections, loadError, models, modelsError, settings, sets, setsError } = useEvalSetupData(collectionId, savedVersion);
  const [showAllModels, setShowAllModels] = useState(false);

  // A first visit starts from the settings' models and the first folder.
  useEffect(() => {
    if (draft || collections === null || settings === undefined || (models === null && modelsError === null)) return;
    onDraft({ collectionId: collections[0]?.id ?? null, set: null, files: [], grid: defaultGrid(settings, (models ?? []).map((m) => m.name)) });
  }, [draft, collections, settings, models, modelsError, onDraft]);

  const allSets = useMemo(() => [...(sets ?? []), ...(draft?.files.map((f) => f.summary) ?? [])], [sets, draft]);
  const chosen = allSets.find((s) => draft?.set === setKey(s.ref) && unusableReason(s) === null) ?? null;

  // Choose the first usable set once the sets are known and nothing usable is chosen (unless the person chose meanwhile).
  useEffect(() => {
    if (!draft || sets === null || chosen) return;
    const first = allSets.find((s) => unusableReason(s) === null);
    if (!first) return;
    const key = setKey(first.ref);
    const seen = draft.set;
    if (seen !== key) onDraft((d) => (d.set === seen ? { ...d, set: key } : d));
  }, [draft, sets, allSets, chosen, onDraft]);

  const check = useMemo(() => (draft ? checkGrid(draft.grid) : null), [draft]);

  if (loadError) return <ErrorNote error={loadError} />;
  if (!draft || !check) return <p className="muted">Loading…</p>;
  if (collections && collections.length === 0) {
    return (
      <section className="card eval-setup" data-testid="eval-setup">
        <p>Import a folder in Library first; Evaluate asks questions about an imported folder.</p>
      </section>
    );
  }

  const grid = draft.grid;
  const setGrid = (patch: Partial<GridDraft>) => onDraft((d) => ({ ...d, grid: { ...d.grid, ...patch } }));
  const questions = chosen ? questionCount(chosen) : 0;
  const problems = [...(chosen || sets === null ? [] : ['Choose a question set, or load a file of questions.']), ...check.problems];
  const chosenFile = draft.files.find((f) => setKey(f.ref) === draft.set);

  const submit = () => {
    if (problems.length > 0 || !check.grid || !chosen || !draft.collectionId) return;
    onStart({ collectionId: draft.collectionId, questionSet: chosenFile ? chosenFile.ref : chosen.ref.kind === 'file' ? chosen.ref : { kind: chosen.ref.kind }, grid: check.grid });
  };

  return (
    <form
      className="card eval-setup"
      data-testid="eval-setup"
      aria-labelledby="eval-setup-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="eval-setup-title" className="section-title">
        New evaluation
      </h2>
      <p className="muted small eval-setup__lead">
        Ask a set of questions with known answers under every combination you choose below, and compare how well each one finds and answers.
      </p>
      <div className="eval-setup__grid">
        <div className="eval-field eval-field--wide">
          <label htmlFor="eval-folder" className="eval-field__label">
            Folder
          </label>
          <select
            id="eval-folder"
            value={draft.collectionId ?? ''}
            disabled={running}
            onChange={(e) => {
              const id = e.target.value;
              onDraft((d) => ({ ...d, collectionId: id, set: null }));
            }}
          >
            {collections?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.root}
              </option>
            ))}
          </select>
        </div>
        <div className="eval-field--wide">
          <QuestionSetPicker
            sets={sets}
            setsError={setsError}
            files={draft.files}
            selected={draft.set}
            disabled={running}
            onSelect={(key) => onDraft((d) => ({ ...d, set: key }))}
            onLoaded={(f) => onDraft((d) => ({ ...d, files: [...d.files.filter((x) => x.ref.name !== f.ref.name), f], set: unusableReason(f.summary) ? d.set : setKey(f.ref) }))}
          />
        </div>
        <CheckList
          legend="Chat models"
          hint={`Up to ${LIMITS.chatModels}. Each writes answers to every question.`}
          options={modelOptions(models, showAllModels, false, grid.chatModels)}
          checked={grid.retrievalOnly ? [] : grid.chatModels}
          disabled={running || grid.retrievalOnly}
          onChange={(chatModels) => setGrid({ chatModels })}
          testId="eval-chat-models"
        >
          {modelsError && <ErrorNote error={modelsError} />}
        </CheckList>
        <CheckList
          legend="Embedding models"
          hint={`Up to ${LIMITS.embedModels}. Each builds its own index of the folder.`}
          options={modelOptions(models, showAllModels, true, grid.embedModels)}
          checked={grid.embedModels}
          disabled={running}
          onChange={(embedModels) => setGrid({ embedModels })}
          testId="eval-embed-models"
        />
        <div className="eval-field--wide eval-setup__model-extras row">
          <label className="eval-check">
            <input type="checkbox" checked={grid.retrievalOnly} disabled={running} onChange={(e) => setGrid({ retrievalOnly: e.target.checked })} data-testid="eval-retrieval-only" />
            <span>Retrieval only</span>
            <span className="muted small">no chat model: measures search alone, much faster</span>
          </label>
          {models && models.length > 0 && (
            <label className="eval-check">
              <input type="checkbox" checked={showAllModels} onChange={(e) => setShowAllModels(e.target.checked)} />
              <span>List every installed model in both lists</span>
            </label>
          )}
        </div>
        <CheckList
          legend="Chunkers"
          hint="How the documents are cut into passages."
          options={CHUNKER_PRESETS.map((p) => ({ value: p.spec, label: <span className="mono">{p.spec}</span>, note: p.label }))}
          checked={grid.chunkers}
          disabled={running}
          onChange={(chunkers) => setGrid({ chunkers })}
          testId="eval-chunkers"
        >
          <label className="eval-field__sub">
            <span className="small">Other chunkers (comma-separated)</span>
            <input type="text" value={grid.customChunkers} placeholder="e.g. heading:512, fixed:256/32" spellCheck={false} onChange={(e) => setGrid({ customChunkers: e.target.value })} />
          </label>
        </CheckList>
        <CheckList
          legend="Search modes"
          hint="Keyword, meaning, or both fused."
          options={SEARCH_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
          checked={grid.modes}
          disabled={running}
          onChange={(modes) => setGrid({ modes: modes as SearchMode[] })}
          testId="eval-modes"
        />
        <div className="eval-field">
          <label htmlFor="eval-ks" className="eval-field__label">
            Passages per question (k)
          </label>
          <input id="eval-ks" type="text" inputMode="numeric" value={grid.ks} disabled={running} onChange={(e) => setGrid({ ks: e.target.value })} aria-describedby="eval-ks-hint" spellCheck={false} />
          <span id="eval-ks-hint" className="muted small">
            One or more values, e.g. 3, 5 (1 to {LIMITS.k}).
          </span>
        </div>
        <div className="eval-field">
          <label htmlFor="eval-fusions" className="eval-field__label">
            Hybrid fusion
          </label>
          <input id="eval-fusions" type="text" value={grid.fusions} disabled={running} onChange={(e) => setGrid({ fusions: e.target.value })} aria-describedby="eval-fusions-hint" spellCheck={false} />
          <span id="eval-fusions-hint" className="muted small">
            How hybrid joins keywords and vectors: weighted:0.2 (20% vectors, the default), rrf:60 (rank fusion). Several: weighted:0.2, weighted:0.4, rrf:60.
          </span>
        </div>
        <div className="eval-field">
          <label htmlFor="eval-repeats" className="eval-field__label">
            Repeats
          </label>
          <input id="eval-repeats" type="number" min={1} max={LIMITS.repeats} value={grid.repeats} disabled={running} onChange={(e) => setGrid({ repeats: e.target.value })} aria-describedby="eval-repeats-hint" />
          <span id="eval-repeats-hint" className="muted small">
            Ask each question this many times, to see whether answers change (1 to {LIMITS.repeats}).
          </span>
        </div>
      </div>
      <RunEstimate configs={check.configs} questions={questions} repeats={check.grid?.repeats ?? (Number(grid.repeats) || 1)} indexes={check.indexes} answers={!grid.retrievalOnly} />
      {problems.length > 0 && (
        <ul className="eval-problems" aria-live="polite" data-testid="eval-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {startError && !running && <ErrorNote error={startError} />}
      <div className="row">
        <button type="submit" className="button button--primary" data-testid="eval-run" disabled={running}>
          {running ? 'Running…' : 'Run evaluation'}
        </button>
      </div>
    </form>
  );
}
