/**
 * For the readers that rewrite another format line for line into the Markdown the chunkers read
 * (rst, asciidoc, org, latex), and for the readers that fence or quote code they hold as one text
 * (notebook cells, HTML's <pre> and inline code). The chunkers (chunkers/markdown.ts) take any line of up to three spaces and
 * `#`…`######` for a heading and any ```` ``` ```` or `~~~` for a fence, so a line of the source
 * that is neither must not look like one: a `# comment` in a directive's body would open a section,
 * and a `~~~~~~` transition or a pasted ```` ```bash ```` would turn the rest of the file into code.
 */

/** Heading or fence openers as the chunkers see them (spaces only: a tab ends their indentation). */
const LOOKS_LIKE_MARKUP = /^( {0,3})(#{1,6}(?=[ \t\r]|$)|`{3}|~{3})/;

/** A section title as the chunkers read it: an ATX heading, its level held to `#`…`######`. */
export function atxHeading(level: number, text: string): string {
  return `${'#'.repeat(Math.min(Math.max(level, 1), 6))} ${text}`;
}

/** The line as text: a leading `#`, ```` ``` ```` or `~~~` escaped (`\#`), which Markdown shows as written. */
export function asTextLine(line: string): string {
  return LOOKS_LIKE_MARKUP.test(line) ? line.replace(LOOKS_LIKE_MARKUP, '$1\\$2') : line;
}

/**
 * An opening fence for these code lines: backticks one longer than any backtick run that begins one
 * of them, so Markdown in the code (a ```` ```js ```` in a listing about Markdown) neither closes it
 * nor leaves the reader's own closing fence opening a new one that runs to the end of the file.
 */
export function fenceFor(code: readonly string[]): string {
  let longest = 2;
  for (const line of code) {
    const m = /^\s*(`+)/.exec(line);
    if (m && m[1]!.length > longest) longest = m[1]!.length;
  }
  return '`'.repeat(longest + 1);
}

/**
 * The longest run of backticks anywhere in `text` (0 when none): a fence or code span one longer
 * cannot be closed by anything inside it. Counted in a loop, not by spreading the runs into
 * Math.max, which overflows the call stack on a text of a few hundred thousand runs.
 */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    let end = i + 1;
    while (text[end] === '`') end++;
    if (end - i > longest) longest = end - i;
    i = end;
  }
  return longest;
}

/** A fence for code held as one text: at least three backticks, and longer than any run inside it. */
export function fenceAround(code: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
}
