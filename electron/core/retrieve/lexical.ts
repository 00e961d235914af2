import type { Db } from '../db/open';
import type { Ranked } from './fusion';
import { toMatchExpression } from './fts-query';

/** Heading path weighs twice the body: a query naming a section should find that section. */
const HEADING_WEIGHT = 2.0;
const BODY_WEIGHT = 1.0;

export function lexicalSearch(db: Db, query: string, limit: number, filter: { collectionId?: string } = {}): Ranked[] {
  const expression = toMatchExpression(query);
  if (expression === null) return [];
  const rows = db
    .prepare(
      `SELECT f.rowid AS rowid
         FROM chunks_fts f
         JOIN chunks c ON c.rowid = f.rowid
         JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @expression
          AND (@collection IS NULL OR d.collection_id = @collection)
        ORDER BY bm25(chunks_fts, ${HEADING_WEIGHT}, ${BODY_WEIGHT}), f.rowid
        LIMIT @limit`,
    )
    .all({ expression, collection: filter.collectionId ?? null, limit }) as Array<{ rowid: number }>;
  return rows.map((r, i) => ({ rowid: r.rowid, rank: i + 1 }));
}
