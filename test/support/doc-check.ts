/**
 * Reading the README and docs/ as Markdown, for test/readme.test.ts: the `quire` commands they
 * show (code blocks and inline code), checked against the CLI's own usage table; their relative
 * links and anchors; their table cells. Parsed with markdown-it (the Markdown reader's parser), so
 * a fence inside a list item or a code span inside a table cell is found as a reader sees it.
 */
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { COMMAND_NAMES, OPTIONS, unusedOption } from '../../electron/cli/usage';
import { SETTING_KEYS } from '../../shared/settings';

const parser = new MarkdownIt('commonmark').enable(['table']);

/** A piece of a document, with the 1-based line it starts on. */
export interface Located {
  text: string;
  line: number;
  /** The `quire <command>` whose `##` section it sits in (docs/cli.md's layout), if any. */
  section: string | null;
}

interface Parsed {
  tokens: Token[];
  /** Heading text (code spans as their text), in order, with level and line. */
  headings: { text: string; level: number; line: number }[];
}

function parse(markdown: string): Parsed {
  const tokens = parser.parse(markdown, {});
  const headings: Parsed['headings'] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') headings.push({ text: inlineText(tokens[i + 1]!), level: Number(t.tag.slice(1)), line: t.map![0] + 1 });
  });
  return { tokens, headings };
}

const inlineText = (inline: Token) => (inline.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');

/** Walks block tokens with the `quire <command>` section each sits in. */
function walk(markdown: string, visit: (token: Token, line: number, section: string | null) => void): void {
  const { tokens } = parse(markdown);
  let section: string | null = null;
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open' && t.tag === 'h2') section = /^quire (\S+)/.exec(inlineText(tokens[i + 1]!))?.[1] ?? null;
    visit(t, (t.map?.[0] ?? 0) + 1, section);
  });
}

/** Every code block line and every inline code span, where it is. */
export function codeTexts(markdown: string): { blocks: Located[]; inline: Located[] } {
  const blocks: Located[] = [];
  const inline: Located[] = [];
  walk(markdown, (t, line, section) => {
    if (t.type === 'fence' || t.type === 'code_block') {
      // A line ending in a backslash goes on, as the shell reads it.
      t.content.replace(/\\\n/g, ' ').split('\n').forEach((text, i) => blocks.push({ text, line: line + 1 + i, section }));
    } else if (t.type === 'inline') {
      for (const c of t.children ?? []) if (c.type === 'code_inline') inline.push({ text: c.content, line, section });
    }
  });
  return { blocks, inline };
}

/** Splits a shell line into words (quotes kept together), dropping a `#` comment. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"[^"]*"|'[^']*'|\S+/g)) {
    if (m[0].startsWith('#')) break;
    words.push(m[0]);
  }
  return words;
}

/** The arguments after `quire` (or `npm run quire --`) in each command of a line, env assignments before it allowed. */
export function quireInvocations(line: string): string[][] {
  const found: string[][] = [];
  let segment: string[] = [];
  const end = () => {
    const words = segment.slice(segment.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w)));
    if (words[0] === 'quire') found.push(words.slice(1));
    else if (words.slice(0, 4).join(' ') === 'npm run quire --') found.push(words.slice(4));
    segment = [];
  };
  for (const w of shellWords(line)) {
    if (['&&', '||', ';', '|'].includes(w)) end();
    else segment.push(w);
  }
  end();
  return found;
}

type OptionName = keyof typeof OPTIONS;
const isOption = (name: string): name is OptionName => Object.hasOwn(OPTIONS, name);
/** A placeholder as usage lines write one: <folder>, NAME, … */
const isPlaceholder = (word: string) => /^<.*>$/.test(word) || word === '…' || word === '...';

/** What is wrong with one `quire` invocation (its arguments), per electron/cli/usage.ts; empty when nothing. */
export function invocationProblems(args: readonly string[]): string[] {
  const problems: string[] = [];
  const positionals: string[] = [];
  const flags: string[] = [];
  // Usage-style brackets ([--model NAME], [folder…]) are read as the words inside them.
  const words = args.map((w) => w.replace(/^\[+|[\]…]+$/g, '')).filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-h') flags.push('help');
    else if (word.startsWith('--')) {
      const [name, inline] = word.slice(2).split('=', 2) as [string, string | undefined];
      if (!isOption(name)) {
        problems.push(`--${name} is not a flag of quire`);
        continue;
      }
      flags.push(name);
      if (OPTIONS[name].type === 'string' && inline === undefined) i++;
    } else positionals.push(word);
  }
  let [command, ...rest] = positionals;
  if (command === 'help') [command, ...rest] = rest;
  if (command === undefined || isPlaceholder(command)) return problems;
  if (!COMMAND_NAMES.includes(command)) return [...problems, `"${command}" is not a quire command`];
  const unused = unusedOption(command, flags);
  if (unused) problems.push(`--${unused} is not an option of ${command}`);
  if (command === 'settings' && rest[0] === 'set') {
    for (let i = 1; i < rest.length; i += 2) {
      const key = rest[i]!;
      if (!isPlaceholder(key) && !(SETTING_KEYS as readonly string[]).includes(key)) problems.push(`"${key}" is not a setting`);
    }
  }
  return problems;
}

/** The flags a command reads besides those every command takes, from usage.ts. */
export function commandFlags(command: string): OptionName[] {
  const everyCommand = (Object.keys(OPTIONS) as OptionName[]).filter((o) => COMMAND_NAMES.every((c) => unusedOption(c, [o]) === null));
  return (Object.keys(OPTIONS) as OptionName[]).filter((o) => !everyCommand.includes(o) && unusedOption(command, [o]) === null);
}

/**
 * Every `quire` command a document shows that the CLI would not take, as "line N: `text`: why".
 * With `bareFlags`, an inline code span that starts with a flag (`--k N`) must name one that exists, and in a `## quire <command>`
 * section be one that command reads.
 */
export function commandProblems(markdown: string, { bareFlags = false } = {}): string[] {
  const { blocks, inline } = codeTexts(markdown);
  const problems: string[] = [];
  for (const { text, line } of [...blocks, ...inline]) {
    for (const args of quireInvocations(text)) for (const p of invocationProblems(args)) problems.push(`line ${line}: \`${text.trim()}\`: ${p}`);
  }
  if (bareFlags) {
    for (const { text, line, section } of inline) {
      if (!text.startsWith('--')) continue;
      // Only the flag itself: what follows may be its value or a sentence quoting it (`--k needs a number`).
      const flag = shellWords(text).slice(0, 1);
      const problem = section !== null && COMMAND_NAMES.includes(section) ? invocationProblems([section, ...flag]) : invocationProblems(flag);
      for (const p of problem) problems.push(`line ${line}: \`${text}\`: ${p}`);
    }
  }
  return problems;
}

/** The commands a document shows, for checking that the check saw them at all. */
export function invocationsIn(markdown: string): string[][] {
  const { blocks, inline } = codeTexts(markdown);
  return [...blocks, ...inline].flatMap(({ text }) => quireInvocations(text));
}

/** The `quire <command>` sections of a document (docs/cli.md), with their text, by command. */
export function commandSections(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const h2 = parse(markdown).headings.filter((h) => h.level === 2);
  const sections = new Map<string, string>();
  h2.forEach((h, i) => {
    const command = /^quire (\S+)$/.exec(h.text)?.[1];
    if (command) sections.set(command, lines.slice(h.line, (h2[i + 1]?.line ?? lines.length + 1) - 1).join('\n'));
  });
  return sections;
}

/** The anchor GitHub gives a heading. */
export function slug(heading: string): string {
  return heading.toLowerCase().trim().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of parse(markdown).headings) {
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Links and images as written, with their lines. */
export function links(markdown: string): Located[] {
  const found: Located[] = [];
  walk(markdown, (t, line) => {
    for (const c of t.children ?? []) {
      const target = c.type === 'link_open' ? c.attrGet('href') : c.type === 'image' ? c.attrGet('src') : null;
      if (target !== null) found.push({ text: String(target), line, section: null });
    }
  });
  return found;
}

/** Every relative link of a file that points at no file, or at no heading of it; empty when all hold. */
export function brokenLinks(file: string, markdown = fs.readFileSync(file, 'utf8')): string[] {
  const broken: string[] = [];
  for (const { text, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) continue;
    const [target, anchor] = text.split('#', 2) as [string, string | undefined];
    const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURI(target));
    if (target !== '' && !fs.existsSync(resolved)) broken.push(`line ${line}: ${text}: no such file`);
    else if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(target === '' ? markdown : fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`line ${line}: ${text}: no such heading`);
  }
  return broken;
}

/** Every table cell of a document, as written, with the line of its row. */
export function tableCells(markdown: string): Located[] {
  const cells: Located[] = [];
  let row = 0;
  const tokens = parse(markdown).tokens;
  tokens.forEach((t, i) => {
    if (t.type === 'tr_open') row = (t.map?.[0] ?? 0) + 1;
    if (t.type === 'td_open' || t.type === 'th_open') cells.push({ text: tokens[i + 1]!.content, line: row, section: null });
  });
  return cells;
}

/** The 1-based lines of a document's headings, by text. */
export function headingLines(markdown: string): { text: string; level: number; line: number }[] {
  return parse(markdown).headings;
}
