import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../electron/cli/usage';
import { parseQuestionSet } from '../electron/core/eval/questions';
import { READ_EXTENSIONS } from '../shared/document-types';
import {
  brokenLinks,
  codeTexts,
  commandFlags,
  commandProblems,
  commandSections,
  headingLines,
  invocationsIn,
  links,
  tableCells,
} from './support/doc-check';

/**
 * The README is a quick start and docs/ holds the reference; both must stay true as the CLI
 * changes. The commands and flags they show are checked against the CLI's own usage table
 * (electron/cli/usage.ts), so a renamed flag or a command added without its docs fails here.
 */
const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const README = read('README.md');
const CLI = read('docs/cli.md');

/** The guides written for readers, held to short table cells (the architecture map and records are not). */
const GUIDES = ['README.md', 'docs/app.md', 'docs/cli.md', 'docs/development.md', 'docs/evaluation.md', 'docs/formats.md', 'docs/ollama.md', 'docs/retrieval.md', 'docs/security.md'];
const MAX_CELL = 300;

describe('the checks can fail', () => {
  it('finds an invented command, flag or setting, and a flag of another command', () => {
    const wrong = [
      '```sh',
      'quire frobnicate ~/notes',
      'quire search "keys" --bogus',
      'quire ask "How?" --mode lexical     # ask has no --mode',
      'quire settings set searchMod lexical',
      'QUIRE_DB=x.db npm run quire -- import ~/notes --no-embeds',
      '```',
      '',
      'Inline: `quire embed --k 4` and `quire rebuild --into=new.db --chunker heading:256`.',
      '',
      '## quire import',
      '',
      '- `--k N`: not an option of import.',
      '- `--no-such-flag`: not a flag at all.',
    ].join('\n');
    const problems = commandProblems(wrong, { bareFlags: true });
    expect(problems).toEqual([
      'line 2: `quire frobnicate ~/notes`: "frobnicate" is not a quire command',
      'line 3: `quire search "keys" --bogus`: --bogus is not a flag of quire',
      'line 4: `quire ask "How?" --mode lexical     # ask has no --mode`: --mode is not an option of ask',
      'line 5: `quire settings set searchMod lexical`: "searchMod" is not a setting',
      'line 6: `QUIRE_DB=x.db npm run quire -- import ~/notes --no-embeds`: --no-embeds is not a flag of quire',
      'line 9: `quire embed --k 4`: --k is not an option of embed',
      'line 9: `quire rebuild --into=new.db --chunker heading:256`: --chunker is not an option of rebuild',
      'line 13: `--k N`: --k is not an option of import',
      'line 14: `--no-such-flag`: --no-such-flag is not a flag of quire',
    ]);
  });

  it('takes every form the docs write a real command in', () => {
    const right = [
      '```sh',
      'quire --help',
      'quire help ask',
      'OLLAMA_HOST=https://ollama.example.org quire ask "Which port?" --ollama-header "Authorization: Bearer …"',
      'quire eval qs.json --docs ~/notes \\',
      '  --embed-models a,b --fresh-index --out=r.json',
      'npm link && quire import ~/notes --no-embed --batch 8',
      '  quire settings set searchMode lexical k 4 --force',
      '```',
      '',
      '`quire import <folder> [--model NAME] [--chunker SPEC]`, `quire rebuild [folder…] [--into PATH]`, `npm run quire -- <command>`, `quire settings set <key> <value>`.',
      '',
      '## quire search',
      '',
      '- `--mode lexical|dense|hybrid`, `--json`, `--collection NAME`.',
    ].join('\n');
    expect(commandProblems(right, { bareFlags: true })).toEqual([]);
    expect(invocationsIn(right)).toHaveLength(10);
  });

  it('finds a link to no file or no heading, and a long table cell', () => {
    const file = path.join(ROOT, 'docs', 'example.md');
    const text = '# Title\n\n## A team’s shared Ollama\n\n[ok](cli.md#quire-ask) [self](#a-teams-shared-ollama) [gone](nowhere.md) [bad anchor](cli.md#quire-frobnicate) [web](https://ollama.com)\n';
    expect(brokenLinks(file, text)).toEqual(['line 5: nowhere.md: no such file', 'line 5: cli.md#quire-frobnicate: no such heading']);
    const table = `| a | b |\n| --- | --- |\n| short | ${'x'.repeat(MAX_CELL + 1)} |\n`;
    expect(tableCells(table).filter((c) => c.text.length > MAX_CELL).map((c) => c.line)).toEqual([3]);
  });
});

describe('the README and docs/ say only what the CLI takes', () => {
  it('every quire command and flag in README.md and docs/cli.md exists (bare flags in a command section are that command’s)', () => {
    expect(invocationsIn(README).length).toBeGreaterThanOrEqual(8);
    expect(invocationsIn(CLI).length).toBeGreaterThanOrEqual(30);
    const problems = [README, CLI].flatMap((text, i) => commandProblems(text, { bareFlags: true }).map((p) => `${i === 0 ? 'README.md' : 'docs/cli.md'} ${p}`));
    expect(problems).toEqual([]);
  });

  it('every quire command in the other docs exists', () => {
    const problems = DOCS.filter((f) => f !== 'docs/cli.md').flatMap((f) => commandProblems(read(f)).map((p) => `${f} ${p}`));
    expect(problems).toEqual([]);
  });

  it('docs/cli.md has a section per command, naming each flag the command reads', () => {
    const sections = commandSections(CLI);
    expect([...sections.keys()].filter((c) => !COMMAND_NAMES.includes(c))).toEqual([]);
    for (const command of COMMAND_NAMES) {
      const section = sections.get(command);
      expect(section, `no "## quire ${command}" section`).toBeDefined();
      // An example first: the section's first code block comes before its first list or paragraph of flags.
      expect(section!.trimStart().startsWith('```'), `"## quire ${command}" does not start with an example`).toBe(true);
      const missing = commandFlags(command).filter((flag) => !section!.includes(`--${flag}`));
      expect(missing, `quire ${command}: flags not documented`).toEqual([]);
    }
  });

  it('writes the command one way: `npm run quire --` only where docs/cli.md says how to get `quire`', () => {
    const where = [...DOCS, 'README.md'].flatMap((f) =>
      read(f)
        .split('\n')
        .map((line, i) => ({ f, line, n: i + 1 }))
        .filter(({ line }) => line.includes('npm run quire')),
    );
    const gettingIt = headingLines(CLI).filter((h) => h.level === 2);
    const start = gettingIt.find((h) => h.text === 'Getting the command')!.line;
    const end = gettingIt.find((h) => h.line > start)!.line;
    expect(where.filter(({ f, n }) => f !== 'docs/cli.md' || n < start || n > end).map(({ f, n, line }) => `${f}:${n}: ${line}`)).toEqual([]);
  });

  it('docs/formats.md and docs/security.md name every extension Quire reads', () => {
    for (const file of ['docs/formats.md', 'docs/security.md']) {
      const spans = new Set(codeTexts(read(file)).inline.map((c) => c.text));
      expect(READ_EXTENSIONS.filter((ext) => !spans.has(ext)), file).toEqual([]);
    }
  });

  it('the question set in docs/formats.md is one Quire reads', () => {
    const json = codeTexts(read('docs/formats.md')).blocks;
    const text = json.map((b) => b.text).join('\n');
    const start = text.indexOf('[');
    const set = text.slice(start, text.indexOf('\n]', start) + 2);
    expect(parseQuestionSet(set).map((q) => q.id)).toEqual(['keys-rotation', 'office-move']);
  });
});

describe('the README is a quick start', () => {
  const h2 = headingLines(README).filter((h) => h.level === 2);
  const more = h2.find((h) => h.text === 'More');

  it('has at most 150 lines before its last section, "More", which links every docs file', () => {
    expect(more).toBeDefined();
    expect(h2.at(-1)).toBe(more);
    expect(more!.line - 1).toBeLessThanOrEqual(150);
    const linked = new Set(links(README.split('\n').slice(more!.line).join('\n')).map((l) => l.text.split('#')[0]));
    expect(DOCS.filter((f) => !linked.has(f))).toEqual([]);
  });

  it('keeps the set-up commands CI runs, and says how to get `quire` before using it', () => {
    const blocks = codeTexts(README).blocks.map((b) => b.text);
    expect(blocks.some((l) => l.trim().startsWith('npm install && npm start'))).toBe(true);
    expect(blocks.some((l) => l.trim().startsWith('npm test'))).toBe(true);
    const link = blocks.findIndex((l) => l.trim().startsWith('npm link'));
    const firstQuire = blocks.findIndex((l) => l.trim().startsWith('quire '));
    expect(link).toBeGreaterThanOrEqual(0);
    expect(link).toBeLessThan(firstQuire);
    expect(blocks.some((l) => /^quire ask /.test(l.trim()))).toBe(true);
    expect(blocks.some((l) => /^ollama pull /.test(l.trim()))).toBe(true);
  });
});

describe('links and tables', () => {
  it('every relative link in README.md and docs/*.md points at a file (and a heading) that exists', () => {
    const broken = ['README.md', ...DOCS].flatMap((f) => brokenLinks(path.join(ROOT, f)).map((b) => `${f} ${b}`));
    expect(broken).toEqual([]);
  });

  it(`no table cell in the guides is over ${MAX_CELL} characters`, () => {
    const long = GUIDES.flatMap((f) => tableCells(read(f)).filter((c) => c.text.length > MAX_CELL).map((c) => `${f}:${c.line} (${c.text.length})`));
    expect(long).toEqual([]);
  });
});
