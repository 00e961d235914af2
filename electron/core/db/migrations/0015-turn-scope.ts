import type { Migration } from './types';

/**
 * Each turn keeps its own copy of the folders its question was asked of, as it keeps its question
 * (migration 0009): a follow-up that names no folders is asked of its conversation's last ones
 * (db/conversations.ts conversationScope), and the run that held them is deleted when a document it
 * quoted is removed. Read from the run alone, a follow-up to an answer quoting a forgotten folder
 * was asked of every folder. Copied here from the runs that are left; NULL (not known) where the
 * run is already gone.
 */
export const migration0015: Migration = {
  version: 15,
  name: 'turn-scope',
  up: `
    ALTER TABLE conversation_turns ADD COLUMN scope TEXT;
    UPDATE conversation_turns SET scope = (SELECT r.scope FROM runs r WHERE r.id = conversation_turns.run_id);
  `,
};
