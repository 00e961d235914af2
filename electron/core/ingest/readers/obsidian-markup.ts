/**
 * Notes apps' own markup (Obsidian, Logseq, Foam, Dendron), which CommonMark reads as plain
 * brackets, rewritten as the words those apps show, line for line:
 * - `[[Note]]` reads `Note`, `[[Note|shown]]` reads `shown`, `[[Note#Heading]]` `Note > Heading`:
 *   an aliased link's target is its address, which keyword search leaves out as it does a Markdown
 *   link's, so a note that links to "Budget meeting" does not outrank that meeting's own note;
 * - `![[Note]]` (an embedded note) reads as its name; an embedded picture or other file as its
 *   alternative text if it has one (`![[plan.png|Garden beds]]`), else nothing (`|300` is a size);
 * - a callout's `[!warning]- Title` reads `Warning: Title`, as a Sphinx note reads "Note:";
 * - a block's id at the end of its line (` ^a1b2c3`, which links point at) is not shown.
 * Code spans are left as written; the caller leaves out code blocks.
 */
export function obsidianLineText(line: string): string {
  return calloutText(line).replace(BLOCK_ID, '').replace(SPAN_OR_LINK, (whole, code: string | undefined, bang: string, target: string, alias: string | undefined) =>
    code !== undefined ? whole : linkText(bang === '!', target.trim(), alias?.trim()),
  );
}

const BLOCK_ID = /[ \t]\^[A-Za-z0-9-]+[ \t]*$/;

// A code span (kept) or a wikilink; `\|` is the separator a wikilink in a table cell uses.
const SPAN_OR_LINK = /(`+)[^`]*?\1|(!?)\[\[([^[\]|\n]+?)(?:\\?\|([^[\]\n]*))?\]\]/g;

/** Files Obsidian embeds as what they are (a picture, a PDF, a recording), not as a note's text. */
const FILE = /\.(?:png|jpe?g|gif|bmp|svg|webp|avif|heic|tiff?|pdf|mp3|m4a|wav|ogg|flac|webm|mp4|mov|mkv|ogv|3gp)$/i;
const SIZE = /^\d+(?:x\d+)?$/;

function linkText(embed: boolean, target: string, alias: string | undefined): string {
  const shown = alias !== undefined && alias !== '' && !SIZE.test(alias) ? alias : undefined;
  if (embed && FILE.test(target)) return shown ?? '';
  if (shown !== undefined) return shown;
  // `Note#Heading` shows as "Note > Heading"; a block reference (`#^id`) shows the note alone.
  const [note = '', ...anchors] = target.split('#');
  const parts = [note.trim(), ...anchors.map((a) => a.trim()).filter((a) => a !== '' && !a.startsWith('^'))].filter((p) => p !== '');
  return parts.join(' > ');
}

// `> [!type]` opening a blockquote (any depth), with Obsidian's fold mark (`-` or `+`) and a title.
const CALLOUT = /^(\s{0,3}(?:>\s?)+)\[!([A-Za-z][\w-]*)\][-+]?(?:[ \t]+(.*))?$/;

function calloutText(line: string): string {
  const m = CALLOUT.exec(line);
  if (!m) return line;
  const type = m[2]!;
  const name = type[0]!.toUpperCase() + type.slice(1).toLowerCase();
  const title = m[3]?.trim();
  return `${m[1]}${name}:${title ? ` ${title}` : ''}`;
}

/**
 * Obsidian's block comments: from a line that is `%%` alone to the next such line, hidden from
 * its reading view. Plugins keep their data there (Excalidraw's drawing as a `compressed-json`
 * fence of base64 hundreds of kilobytes long, Kanban's settings), which would otherwise be
 * indexed and embedded as text. The lines are blanked, so the rest keep their numbers; a `%%`
 * inside a code fence is code, and one never closed hides nothing.
 */
export function blankBlockComments(lines: string[]): string[] {
  let fence: string | null = null;
  let open = -1;
  const out = lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (open < 0) {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
        continue;
      }
      if (marker) fence = marker;
      else if (line.trim() === '%%') open = i;
    } else if (line.trim() === '%%') {
      for (let j = open; j <= i; j++) out[j] = '';
      open = -1;
    }
  }
  return out;
}
