import type Database from 'better-sqlite3';
import { QuireError } from '../../../shared/errors';
import { abandonBuilds } from './keyword-index-build';
import type { Migration } from './migrations/types';
import { registerSqlFunctions } from './sql-functions';

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database up to the newest migration. Each migration and its version bump run in one
 * transaction, so a failure leaves the database at the previous version. A database written by a
 * newer Quire is refused rather than guessed at.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
  /** Tests: runs between reading the version and the first migration (where another process may step in). */
  hooks: { afterVersionRead?: () => void } = {},
): { from: number; to: number } {
  assertOrdered(migrations);
  // The schema's SQL calls them: the migrations below, and the triggers on every later write of this connection.
  registerSqlFunctions(db);
  const latest = migrations.at(-1)?.version ?? 0;
  const from = schemaVersion(db);
  refuseNewer(from, latest);
  hooks.afterVersionRead?.();
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      // Read again under the write lock: another process opening the same new database may have
      // applied this migration while we waited for the lock.
      const now = schemaVersion(db);
      refuseNewer(now, latest);
      if (now >= m.version) return;
      // A keyword index half rebuilt by the schema before this migration would be swapped in over
      // what the migration makes of it (db/keyword-index-build.ts).
      abandonBuilds(db);
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return { from, to: Math.max(from, latest) };
}

/** A database written by a newer Quire is refused rather than guessed at. */
export function refuseNewer(version: number, latest: number): void {
  if (version > latest) {
    throw new QuireError(
      'DB_NEWER_THAN_APP',
      `This database is at schema version ${version}, but this version of Quire only knows up to ${latest}. ` +
        'Update Quire, or point it at another database with --db. The file was not changed.',
    );
  }
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version !== i + 1) {
      throw new Error(`Migration list is broken: entry ${i} has version ${m.version}, expected ${i + 1}.`);
    }
  });
}
