import type { StoredConversation } from '../../../../shared/conversations';
import { describeError } from '../../api/messages';
import { finishTurn, newTurn, type Turn } from '../ask/turn';

/**
 * A stored conversation's turns as the Ask view shows them: each finished as its stored answer
 * ended (so it renders exactly as when it was answered), or marked removed when its run is gone.
 */
export function turnsOf(conversation: StoredConversation, firstId: number): Turn[] {
  return conversation.turns.map((t, i) => {
    const turn = newTurn(firstId + i, t.question);
    if (!t.result) return { ...turn, running: false, removed: true };
    return finishTurn(turn, t.result, t.result.error ? describeError(t.result.error) : null);
  });
}
