/**
 * YAML (`---`, closed by `---` or `...`) and TOML (`+++`) front matter, as notes apps write it
 * (Obsidian, Logseq, Hugo, Jekyll): the body starts after it, its `title` names the note, and its
 * aliases and tags are words a person searches by, so they are read as text; every other property
 * (dates, ids, plugin settings) is left out.
 */

/**
 * The index of the first line after the front matter, else 0: where the body begins (MDX's reader
 * skips the same lines).
 */
export function frontMatterEnd(lines: readonly string[]): number {
  const fence = lines[0]?.trimEnd();
  if (fence !== '---' && fence !== '+++') return 0;
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === fence || (fence === '---' && l.trimEnd() === '...')));
  return end > 0 ? end + 1 : 0;
}

/** The front matter's `title`, or null. `lines` are those between the fences. */
export function frontMatterTitle(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = /^title\s*[:=]\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = unquote((m[1] ?? '').trim());
    return value.length > 0 ? value : null;
  }
  return null;
}

/** Property names whose values are read as text, and how each is labelled. */
const LISTED: ReadonlyArray<{ keys: RegExp; label: string; strip?: RegExp }> = [
  { keys: /^(?:aliases|alias)$/i, label: 'Aliases' },
  // Obsidian accepts a tag with or without its `#`.
  { keys: /^(?:tags|tag)$/i, label: 'Tags', strip: /^#/ },
];

/**
 * The front matter's lines (fences included) as the text a reader sees: `aliases` and `tags`
 * become `Aliases: a, b` and `Tags: x, y` on the line of their key, every other line is blank, so
 * the body keeps its line numbers. Values may be a scalar, a comma list, a flow list (`[a, "b c"]`)
 * or a block list (`- a` on the lines below), as YAML and Obsidian allow; TOML's `tags = [...]` too.
 */
export function frontMatterText(lines: readonly string[], end: number): string[] {
  const out = lines.slice(0, end).map(() => '');
  for (let i = 1; i < end - 1; i++) {
    const m = /^([A-Za-z_][\w-]*)\s*[:=]\s*(.*)$/.exec(lines[i]!);
    const kind = m ? LISTED.find((k) => k.keys.test(m[1]!)) : undefined;
    if (!m || !kind) continue;
    const values = inlineValues(m[2]!.trim());
    // A block list: `- item` lines below the key (indented or not, as YAML allows for sequences).
    for (let j = i + 1; m[2]!.trim() === '' && j < end - 1; j++) {
      const item = /^\s*-\s+(.*)$/.exec(lines[j]!);
      if (!item) break;
      values.push(unquote(item[1]!.trim()));
    }
    // Hugo's `aliases` are old addresses of the page (`/posts/old/`), not names for it.
    const words = values.map((v) => (kind.strip ? v.replace(kind.strip, '') : v)).filter((v) => v !== '' && !ADDRESS.test(v));
    if (words.length > 0) out[i] = `${kind.label}: ${words.join(', ')}`;
  }
  return out;
}

const ADDRESS = /^(?:\/|[a-z][a-z0-9+.-]*:\/\/)/i;

function inlineValues(value: string): string[] {
  if (value === '' || value === '~' || value === 'null' || value === '[]') return [];
  const flow = /^\[(.*)\]$/.exec(value);
  const items = flow ? flow[1]!.match(FLOW_ITEM) ?? [] : value.startsWith('"') || value.startsWith("'") ? [value] : value.split(',');
  return items.map((v) => unquote(v.trim())).filter((v) => v !== '');
}

// A flow list's items: quoted (commas inside kept) or plain up to the next comma.
const FLOW_ITEM = /\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+)/g;

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) {
    const inner = v.slice(1, -1);
    return v[0] === '"' ? inner.replace(/\\"/g, '"') : inner.replace(/''/g, "'");
  }
  return v;
}
