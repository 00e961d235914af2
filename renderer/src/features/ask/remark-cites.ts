/**
 * `[chunk-id]` citation markers as their own nodes in the Markdown tree, so the renderer can show
 * them as chips. Only text nodes are looked at: markers inside code spans and code blocks stay
 * code. Each marker becomes a `<span data-cite …>` carrying its numbering, which Markdown.tsx
 * swaps for whatever the caller renders.
 */

export interface CiteNode {
  chunkId: string;
  /** 1-based number of this source in the answer (first appearance order). */
  n: number;
  /** How many markers citing the same id came before this one. */
  occurrence: number;
  /** 0-based position among all markers in the answer. */
  index: number;
}

const BRACKET = /\[\[?([^[\]\n]{1,300})\]\]?/g;
const ENTRY_PREFIX = /\b(?:chunk|source|id|ref)s?\s*[:=]\s*/gi;
const ID_LIKE = /^[\p{L}\p{N}_./-]+#\d+$/u;

/** The ids in a bracket when every entry looks like `something#N`; null otherwise. */
export function citationIds(inner: string): string[] | null {
  const entries = inner
    .replace(ENTRY_PREFIX, ' ')
    .split(/[\s,;|]+/)
    .map((e) => e.replace(/^[`*"']+|[`*"']+$/g, ''))
    .filter((e) => e !== '' && !/^(?:and|&)$/i.test(e));
  if (entries.length === 0 || !entries.every((e) => ID_LIKE.test(e))) return null;
  return entries;
}

/** The slice of mdast this plugin reads and writes (text nodes and parents). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName: string; hProperties: Record<string, string | number> };
}

/** Numbers markers as they appear: a source keeps its first number when cited again. */
export function citeNumberer() {
  const numbers = new Map<string, number>();
  const seen = new Map<string, number>();
  let index = 0;
  return (chunkId: string): CiteNode => {
    const n = numbers.get(chunkId) ?? numbers.size + 1;
    numbers.set(chunkId, n);
    const occurrence = seen.get(chunkId) ?? 0;
    seen.set(chunkId, occurrence + 1);
    return { chunkId, n, occurrence, index: index++ };
  };
}

/** Text split into plain text and citation markers, in order. */
export function splitCites(text: string, next: (chunkId: string) => CiteNode): Array<string | CiteNode> {
  const out: Array<string | CiteNode> = [];
  let last = 0;
  for (const m of text.matchAll(BRACKET)) {
    const ids = citationIds(m[1] ?? '');
    if (!ids) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    for (const id of ids) out.push(next(id));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const citeNode = (c: CiteNode): MdNode => ({
  type: 'cite',
  data: { hName: 'span', hProperties: { dataCite: c.chunkId, dataN: c.n, dataOccurrence: c.occurrence, dataIndex: c.index } },
});

/** The remark plugin. Tree order is reading order, so numbering matches what the reader sees. */
export function remarkCites() {
  return (tree: unknown) => {
    const next = citeNumberer();
    const walk = (node: MdNode) => {
      if (!node.children) return;
      node.children = node.children.flatMap((child) => {
        if (child.type !== 'text' || !child.value?.includes('#')) {
          walk(child);
          return [child];
        }
        return splitCites(child.value, next).map((part) => (typeof part === 'string' ? { type: 'text', value: part } : citeNode(part)));
      });
    };
    walk(tree as MdNode);
  };
}
