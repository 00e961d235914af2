/**
 * The words of a passage that keyword search indexes: what a reader of the rendered Markdown sees.
 * A link's address and a reference link's label are hidden on the page, yet in the source they
 * name other topics (`[the guide](https://kubernetes.io/docs/…/configure-liveness-readiness-probes)`,
 * a table of contents' `(#fst_err_duplicated_route)` anchors, the `[ch09]: ch09-00-error-handling.html`
 * definitions at the end of each chapter). Indexed, they make a link list outrank the passage it
 * points at. Measured on the question sets (test/bench/retrieval.ts): rust-book hit@1 68 → 70%,
 * its held-out set 72.5 → 75% with one more fact sent, fastify-docs hit@1 +1 question; nothing lost.
 *
 * Text, not a parse: a chunk is a fragment of its document, so a reference link's definition is
 * usually in another chunk, where a CommonMark parser would leave `[text][label]` as literal text.
 * Fenced code and code spans are left exactly as they are: `handlers[i](req)` is code, not a link. Text people see in
 * full — link text, an image's alt text, an autolink or a bare URL — stays.
 */
export function searchableText(text: string): string {
  if (!text.includes('[') && !HTML_ADDRESS_HINT.test(text)) return text;
  const lines = text.split('\n');
  let fence: { char: string; length: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE.exec(line);
    if (fence) {
      if (marker && marker[1]![0] === fence.char && marker[1]!.length >= fence.length && marker[2]!.trim() === '') fence = null;
      continue;
    }
    if (marker) {
      fence = { char: marker[1]![0]!, length: marker[1]!.length };
      continue;
    }
    if (!line.includes('[') && !HTML_ADDRESS_HINT.test(line)) continue;
    // A definition's address, and then its title, may each stand on the line after (CommonMark allows
    // both; fastify's docs break long anchors so): those lines are as hidden as the label's.
    const definition = DEFINITION.exec(line) ?? (LABEL_ALONE.test(line) && i + 1 < lines.length ? DESTINATION_LINE.exec(lines[i + 1]!) : null);
    if (definition) {
      lines[i] = '';
      if (definition[0] !== line) lines[++i] = '';
      if (definition[1] === undefined && i + 1 < lines.length && TITLE_LINE.test(lines[i + 1]!)) lines[++i] = '';
      continue;
    }
    lines[i] = visibleLine(line);
  }
  return lines.join('\n');
}

/**
 * An opening or closing code fence: three or more backticks or tildes, after any blockquote markers
 * and list marker it sits in (`> ```js`, `1. ```bash`, a list item's fence indented to its text).
 * A backtick fence's info string holds no backtick (` ```a``` ` is a code span).
 */
const FENCE = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}(?!.*`)|~{3,})(.*)$/;

/** A definition's title: `"…"`, `'…'` or `(…)`. */
const TITLE = String.raw`(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\))`;

/** `[label]:` as a definition begins it; a footnote (`[^1]: …`) is text people read. */
const LABEL = String.raw`^ {0,3}\[(?!\^)[^\]\n]+\]:`;

/** A destination and its title, if any, to the end of the line; group 1 is the title. */
const DESTINATION = String.raw`[ \t]*(?:<[^>\n]*>|\S+)(?:[ \t]+(${TITLE}))?[ \t]*$`;

/** `[label]: destination "title"` alone on its line. */
const DEFINITION = new RegExp(LABEL + DESTINATION);

/** `[label]:` with nothing after it, its destination on the next line. */
const LABEL_ALONE = new RegExp(`${LABEL}[ \t]*$`);
const DESTINATION_LINE = new RegExp(`^${DESTINATION}`);

/** A title alone on the line after its definition. */
const TITLE_LINE = new RegExp(`^[ \t]*${TITLE}[ \t]*$`);

/**
 * `](destination "title")` after a link's or image's text: one level of parentheses inside the
 * address. An escaped `\]` ends no link text: `\[x\](y)` reads as written.
 */
const INLINE_DESTINATION = new RegExp(String.raw`(?<!\\)\]\((?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+${TITLE})?\s*\)`, 'g');

/** `][label]` or `][]` after a reference link's text. */
const REFERENCE_LABEL = /(?<!\\)\]\[[^\]\n]*\]/g;

/** The line without link addresses and labels, outside its code spans: `a[i](x)` and `m[0][1]` in code are not links. */
function visibleLine(line: string): string {
  return outsideCode(line, (text) => text.replace(INLINE_DESTINATION, ']').replace(REFERENCE_LABEL, ']').replace(HTML_ADDRESS, ''));
}

/**
 * An HTML tag's address, `href="…"` or `src='…'`, with the space before it: as hidden as a Markdown
 * link's (the rust book's figures are `<img src="img/trpl04-01.svg" alt="…">`); the alt text stays.
 * A tag may span lines, so the attribute is found without its `<`.
 */
const HTML_ADDRESS = /(?:^|\s+)(?:href|src)\s*=\s*(?:"[^"\n]*"|'[^'\n]*')/gi;
const HTML_ADDRESS_HINT = /(?:href|src)\s*=/i;

/**
 * `change` applied to a line whose code spans stand aside: each is a placeholder without brackets
 * while it runs (a link's text may hold code, `[`reply.send()`](#send)`), then put back as it was.
 */
function outsideCode(line: string, change: (text: string) => string): string {
  if (!line.includes('`') || line.includes(HOLD)) return change(line);
  const held: string[] = [];
  let masked = '';
  let from = 0;
  for (const [start, end] of codeSpans(line)) {
    masked += `${line.slice(from, start)}${HOLD}${held.length}${HOLD}`;
    held.push(line.slice(start, end));
    from = end;
  }
  if (held.length === 0) return change(line);
  return change(masked + line.slice(from)).replace(HELD, (_, i: string) => held[Number(i)]!);
}

/** A private-use character: what stands for a code span while its line is changed. */
const HOLD = '\uE000';
const HELD = new RegExp(`${HOLD}(\\d+)${HOLD}`, 'g');

/**
 * Where a line's code spans are: a run of backticks up to the next run of exactly as many
 * (CommonMark); a run that none closes is text. Each run's closer is found from the end in one
 * pass: looking it up from the start for every run took minutes on a long line of `` `a ``.
 */
function codeSpans(line: string): Array<[number, number]> {
  const runs = [...line.matchAll(/`+/g)].map((m) => ({ at: m.index, length: m[0].length }));
  const nextOfLength = new Map<number, number>();
  const closer = new Array<number>(runs.length);
  for (let j = runs.length - 1; j >= 0; j--) {
    closer[j] = nextOfLength.get(runs[j]!.length) ?? -1;
    nextOfLength.set(runs[j]!.length, j);
  }
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < runs.length; i++) {
    const close = closer[i]!;
    if (close === -1) continue;
    spans.push([runs[i]!.at, runs[close]!.at + runs[close]!.length]);
    i = close;
  }
  return spans;
}


/**
 * A heading path as people read it: a linked heading (`### [Mongo](https://github.com/…)`, common in
 * docs that list plugins) shows its text alone. The chunk keeps the heading as written; this is for
 * what search results, the source panel and the prompt's source lines show.
 */
export function headingAsRead(heading: string): string {
  if (!heading.includes('](') && !heading.includes('][')) return heading;
  return outsideCode(heading, (text) => {
    // Inside out: a badge's image in its link (`[![CI](badge.svg)](actions)`) reads as its alt text.
    for (let i = 0; i < 4; i++) {
      const read = text.replace(LINK_AND_DESTINATION, '$1').replace(LINK_AND_LABEL, '$1');
      if (read === text) break;
      text = read;
    }
    return text;
  });
}

/** A link's text: one level of brackets inside it (`[guide [beta] edition]`). */
const LINK_TEXT = String.raw`\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)`;
const LINK_AND_DESTINATION = new RegExp(`!?${LINK_TEXT}${INLINE_DESTINATION.source}`, 'g');
const LINK_AND_LABEL = new RegExp(`${LINK_TEXT}\\]\\[[^\\]\\n]*\\]`, 'g');
