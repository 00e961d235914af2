// Control and user-defined tokens ("<|eot_id|>", "<start_of_turn>", Qwen's "<think>") are matched
// in the text before anything is merged, as llama.cpp and Ollama do with the prompt a template
// rendered: leftmost, longest at a position. Quire escapes the control markers in document text
// (text/injection.ts neutraliseForPrompt), so what matches here is the template's own markers
// and whatever the model treats as a token wherever it appears.
import { TokenType } from './vocabulary';

interface Node {
  next: Map<number, Node>;
  id: number;
}

export type Segment = { special: number } | { text: string };

export class SpecialTokens {
  private readonly root: Node = { next: new Map(), id: -1 };
  readonly count: number;

  constructor(tokens: readonly string[], types: Uint8Array) {
    let count = 0;
    tokens.forEach((text, id) => {
      const type = types[id];
      if ((type !== TokenType.control && type !== TokenType.userDefined) || text === '' || /^\[PAD\d+\]$/.test(text)) return;
      let node = this.root;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let child = node.next.get(c);
        if (!child) {
          child = { next: new Map(), id: -1 };
          node.next.set(c, child);
        }
        node = child;
      }
      node.id = id;
      count++;
    });
    this.count = count;
  }

  /** The text cut into ordinary runs and special tokens, in order. */
  split(text: string): Segment[] {
    const out: Segment[] = [];
    if (this.count === 0) return text ? [{ text }] : [];
    let plainFrom = 0;
    for (let i = 0; i < text.length; ) {
      let node = this.root.next.get(text.charCodeAt(i));
      let matchId = -1;
      let matchEnd = i;
      for (let j = i + 1; node; j++) {
        if (node.id >= 0) {
          matchId = node.id;
          matchEnd = j;
        }
        if (j >= text.length) break;
        node = node.next.get(text.charCodeAt(j));
      }
      if (matchId < 0) {
        i++;
        continue;
      }
      if (plainFrom < i) out.push({ text: text.slice(plainFrom, i) });
      out.push({ special: matchId });
      i = matchEnd;
      plainFrom = i;
    }
    if (plainFrom < text.length) out.push({ text: text.slice(plainFrom) });
    return out;
  }
}
