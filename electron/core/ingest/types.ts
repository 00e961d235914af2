import type { QuireErrorShape } from '../../../shared/errors';

export type SkipReason = 'unsupported-type' | 'too-large' | 'symlink-outside-root' | 'symlink-loop' | 'unreadable';

export interface ImportProgress {
  phase: 'scanning' | 'indexing' | 'embedding' | 'cleaning' | 'done';
  filesDone: number;
  filesTotal: number;
  chunks: number;
  bytesDone: number;
  bytesTotal: number;
  currentFile: string | null;
}

export interface EmbeddingOutcome {
  model: string;
  /** ok: vectors written; off: not asked for; unavailable: Ollama or the model could not be used. */
  status: 'ok' | 'off' | 'unavailable';
  error?: QuireErrorShape;
}

export interface ImportReport {
  collection: { id: string; root: string };
  documents: { added: number; updated: number; unchanged: number; deleted: number; skipped: number; failed: number };
  chunks: number;
  embedded: number;
  embedRequests: number;
  errors: Array<{ path: string; code: string; message: string }>;
  skipped: Array<{ path: string; reason: SkipReason; message?: string }>;
  embedding: EmbeddingOutcome;
  cancelled: boolean;
  ms: number;
}
