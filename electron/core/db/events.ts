import type { Db } from './open';
import { stmt } from './statements';

export type EventKind =
  | 'document.added'
  | 'document.replaced'
  | 'document.deleted'
  | 'document.moved'
  | 'document.failed'
  | 'document.embedded'
  | 'model.switched'
  | 'model.dropped'
  | 'collection.added'
  | 'collection.forgotten';

export interface EventInput {
  kind: EventKind;
  collectionId?: string | null;
  documentId?: string | null;
  path?: string | null;
  detail?: Record<string, unknown>;
}

export function appendEvent(db: Db, e: EventInput): void {
  stmt(db, 'INSERT INTO events (at, kind, collection_id, document_id, path, detail) VALUES (?, ?, ?, ?, ?, ?)').run(
    new Date().toISOString(),
    e.kind,
    e.collectionId ?? null,
    e.documentId ?? null,
    e.path ?? null,
    e.detail ? JSON.stringify(e.detail) : null,
  );
}

export interface EventRow {
  id: number;
  at: string;
  kind: EventKind;
  collection_id: string | null;
  document_id: string | null;
  path: string | null;
  detail: string | null;
}

/** The newest event's id (0 for none): a mark to ask later what happened after it. */
export function lastEventId(db: Db): number {
  return stmt(db, 'SELECT coalesce(max(id), 0) FROM events').pluck().get() as number;
}

export function listEvents(db: Db, filter: { documentId?: string; limit?: number } = {}): EventRow[] {
  if (filter.documentId) {
    return stmt(db, 'SELECT * FROM events WHERE document_id = ? ORDER BY id').all(filter.documentId) as EventRow[];
  }
  return stmt(db, 'SELECT * FROM events ORDER BY id DESC LIMIT ?').all(filter.limit ?? 100) as EventRow[];
}
