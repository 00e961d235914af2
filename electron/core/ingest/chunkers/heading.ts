// Heading-aware chunking (the default). Sections run from an H1-H3 heading line to the next one;
// the heading line belongs to its section.
//
// Packing: a section that fits joins the open chunk if the chunk, prefix included, still fits;
// the chunk's heading path is then the deepest path common to all its sections (never the first
// section's path, which would claim a later section's text for the wrong heading). A section
// too big for one chunk closes the open chunk and is cut at paragraphs, then sentences, lines,
// words, and last by tokens; its pieces are packed among themselves, never with neighbouring
// sections, so each of its chunks carries its exact path. Code fences are single pieces: cut
// (at lines) only when one fence alone exceeds the budget.
//
// Budget: tokenCount = tokens of contextualText(chunk) <= maxTokens, with one exception: when
// the heading path alone leaves no room for a token of body, each chunk holds one token of body
// and exceeds the limit by its prefix (only with absurdly long headings and a tiny maxTokens).
import { countTokens } from '../../text/tokenizer';
import { parseOutline, type Block } from './markdown';
import { Packer } from './packer';
import { budgetOf, grouped, lines, sentences, words, type Piece, type Splitter } from './segment';
import { LineIndex, makeChunk, numbered, trimRange } from './text';
import type { Chunk, ChunkInput } from './types';

const PROSE: Splitter[] = [sentences, lines, words];
const CODE: Splitter[] = [lines, words];

interface Section {
  path: string[];
  blocks: Block[];
}

function sections(blocks: Block[], rootPath: string[]): Section[] {
  const out: Section[] = [];
  let current: Section = { path: rootPath, blocks: [] };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      if (current.blocks.length > 0) out.push(current);
      current = { path: block.path ?? rootPath, blocks: [] };
    }
    current.blocks.push(block);
  }
  if (current.blocks.length > 0) out.push(current);
  return out;
}

export function headingChunks(input: ChunkInput, maxTokens: number): Chunk[] {
  const { text } = input;
  const outline = parseOutline(text, input.title);
  const lineIndex = new LineIndex(text, input.firstLine);
  const chunks: Omit<Chunk, 'ordinal'>[] = [];
  const packer = new Packer(
    text,
    maxTokens,
    (p) => chunks.push(makeChunk(input, lineIndex, p.range, p.path, p.tokenCount)),
    budgetOf(maxTokens).countChars,
  );

  for (const section of sections(outline.blocks, outline.rootPath)) {
    const first = section.blocks[0]!;
    const last = section.blocks[section.blocks.length - 1]!;
    const range = trimRange(text, first.start, last.end);
    if (!range) continue;
    const path = section.path;
    const budget = budgetOf(maxTokens - packer.prefixCount(path));
    if (range.end - range.start <= budget.countChars) {
      const tokens = countTokens(text.slice(range.start, range.end));
      if (tokens <= budget.tokens) {
        packer.add({ ...range, tokens, path });
        continue;
      }
    }
    packer.close();
    const pieces: Piece[] = [];
    for (const block of section.blocks) {
      const trimmed = trimRange(text, block.start, block.end);
      if (trimmed) pieces.push({ ...trimmed, finer: block.kind === 'fence' ? CODE : PROSE });
    }
    for (const unit of grouped(text, pieces, budget, PROSE)) packer.add({ ...unit, path });
    packer.close();
  }
  packer.close();
  return numbered(chunks);
}
