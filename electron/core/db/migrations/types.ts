export interface Migration {
  /** Strictly increasing, starting at 1; recorded in PRAGMA user_version. */
  version: number;
  name: string;
  /** SQL run inside the migration's transaction. */
  up: string;
}
