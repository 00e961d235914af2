import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { QuestionSetSummary } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useSettings } from '../../app/client';
import type { Settings } from '../../app/settings-store';

export type Collection = Output<'library'>['collections'][number];
export type Model = Output<'listModels'>['models'][number];

export interface EvalSetupData {
  /** The imported folders; null while loading. */
  collections: Collection[] | null;
  /** Why the folders could not be loaded (the form cannot be used then). */
  loadError: DescribedError | null;
  /** Installed models; null while loading or when Ollama could not be asked. */
  models: Model[] | null;
  modelsError: DescribedError | null;
  /** undefined while loading; null when the settings could not be read. */
  settings: Settings | null | undefined;
  /** The question sets of `collectionId` (never another folder's); null while loading. */
  sets: QuestionSetSummary[] | null;
  setsError: DescribedError | null;
}

/**
 * What the Evaluate form offers: the folders, the installed models and the saved settings (for the defaults),
 * and the question sets of the chosen folder, reloaded when the folder or the saved questions
 * (`savedVersion`) change. An answer for a folder no longer chosen is dropped.
 */
export function useEvalSetupData(collectionId: string | null, savedVersion: number): EvalSetupData {
  const client = useClient();
  const saved = useSettings();
  const settings = saved.settings ?? (saved.error ? null : undefined);
  const [collections, setCollections] = useState<Collection[] | null>(null);
  const [loadError, setLoadError] = useState<DescribedError | null>(null);
  const [models, setModels] = useState<Model[] | null>(null);
  const [modelsError, setModelsError] = useState<DescribedError | null>(null);
  const [sets, setSets] = useState<{ collectionId: string; sets: QuestionSetSummary[]; error: DescribedError | null } | null>(null);

  useEffect(() => {
    let live = true;
    client.library({}).then(
      (l) => live && setCollections(l.collections),
      (e: unknown) => live && setLoadError(describeError(e)),
    );
    client.listModels({}).then(
      (r) => live && setModels(r.models),
      (e: unknown) => live && setModelsError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client]);

  useEffect(() => {
    if (!collectionId) return;
    let live = true;
    client.questionSets({ collectionId }).then(
      (r) => live && setSets({ collectionId, sets: r.sets, error: null }),
      (e: unknown) => live && setSets({ collectionId, sets: [], error: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [client, collectionId, savedVersion]);

  const current = sets && sets.collectionId === collectionId ? sets : null;
  return { collections, loadError, models, modelsError, settings, sets: current?.sets ?? null, setsError: current?.error ?? null };
}
