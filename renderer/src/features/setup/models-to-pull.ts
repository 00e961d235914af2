import type { SetupStatus } from '../../../../shared/setup';
import type { PullItem } from './pull-queue';

const KINDS = ['embedding', 'chat'] as const;

/** What one download of `kind`'s model fetches: the recommended one, else the one Settings name. */
export function pullItem(status: SetupStatus, kind: PullItem['kind']): PullItem {
  const model = status[kind];
  return { kind, name: model.recommended?.name ?? model.name, bytes: model.recommended?.downloadBytes ?? null };
}

/** The models still missing, the embedding model first: it is the smaller, and importing needs it. */
export function modelsToPull(status: SetupStatus): PullItem[] {
  return KINDS.filter((k) => !status[k].installed).map((k) => pullItem(status, k));
}

/** Bytes all these downloads fetch; null when one of their sizes is unknown. */
export function downloadBytes(items: PullItem[]): number | null {
  let sum = 0;
  for (const i of items) {
    if (i.bytes === null) return null;
    sum += i.bytes;
  }
  return sum;
}
