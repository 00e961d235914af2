import { describe, expect, it } from 'vitest';
import { answerResult, candidate } from '../../test/harness';
import { conversationFileName, conversationToMarkdown } from './conversation-export';
import { newTurn, type Turn } from './turn';

const K0 = 'a1b2c3d4e5f6#0';
const K1 = 'a1b2c3d4e5f6#1';

function turn(question: string, text: string, over: Partial<Turn> = {}): Turn {
  return { ...newTurn(1, question), running: false, text, ...over };
}

describe('conversation export as Markdown', () => {
  it('lists each question, its answer with numbered markers, and where each number points', () => {
    const candidates = [candidate(K0, 'notes/keys.md', [3, 9], { heading: 'Keys > Policy' }), candidate(K1, 'guide.pdf', [1, 40], { pages: [12, 12] })];
    const citations = [
      { chunkId: K0, path: 'notes/keys.md', lines: [3, 9] as [number, number], pages: null, sentence: 'a', check: 'supported' as const, missing: [] },
      { chunkId: K1, path: 'guide.pdf', lines: [1, 40] as [number, number], pages: [12, 12] as [number, number], sentence: 'b', check: 'weak' as const, missing: [] },
    ];
    const md = conversationToMarkdown(
      [
        turn('How often are keys rotated?', `Every 90 days [${K0}]. Old keys last 48 hours [${K1}][${K0}].\n\n| a | b |\n|---|---|`, { candidates, result: answerResult({ citations }) }),
        turn('Wifi password?', '', { result: answerResult({ refused: true, status: 'refused' }) }),
        turn('Ghost?', 'Says so [dead00beef00#9].'),
      ],
      new Date('2025-01-31T14:02:00Z'),
    );
    expect(md).toContain('## How often are keys rotated?\n\nEvery 90 days [1]. Old keys last 48 hours [2][1].\n\n| a | b |');
    expect(md).toContain('### Sources\n\n1. `notes/keys.md` — “Keys > Policy” — lines 3–9 — supported\n2. `guide.pdf` — “Doc > Section” — p. 12 — weakly supported\n');
    expect(md).toContain('## Wifi password?\n\n_Not answered: the notes do not say._');
    expect(md).toContain('1. `dead00beef00#9` — not among the passages sent');
    expect(md).not.toContain(K0);
  });

  it('leaves out a turn still streaming, and names the file by date', () => {
    const md = conversationToMarkdown([{ ...turn('Still going?', 'half'), running: true }]);
    expect(md).not.toContain('Still going?');
    expect(conversationFileName(new Date(2025, 0, 31, 14, 2))).toBe('quire-conversation-2025-01-31-1402.md');
  });

  it('tells one file name cited from two folders apart by as much of each folder as it takes', () => {
    const W = 'ffffffffffff#0';
    const candidates = [candidate(K0, 'key-rotation.md', [1, 3], { root: '/home/me/work/notes' }), candidate(W, 'key-rotation.md', [1, 3], { root: '/home/me/home/notes' })];
    const citations = [K0, W].map((chunkId) => ({ chunkId, path: 'key-rotation.md', lines: [1, 3] as [number, number], pages: null, sentence: 'a', check: 'supported' as const, missing: [] }));
    const md = conversationToMarkdown([turn('Which keys?', `Deploy keys [${K0}], door keys [${W}].`, { candidates, result: answerResult({ citations }) })]);
    expect(md).toContain('1. `work/notes/key-rotation.md` — “Doc > Section” — lines 1–3 — supported\n2. `home/notes/key-rotation.md` —');
  });
});
