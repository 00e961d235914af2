import { migration0001 } from './0001-init';
import type { Migration } from './types';

/** Every migration, in order. Add a new file and list it here; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [migration0001];
