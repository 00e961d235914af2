/**
 * The line-rewriting readers (MDX, reStructuredText, AsciiDoc, Org, LaTeX) on hostile input: each reader
 * over each pathological text at 1.25 MB and at 5 MB. A linear reader takes about four times as long
 * on the larger; a pattern that backtracks takes sixteen times (quadratic) or never finishes. Also
 * checks that no reader changes the number of lines. Exits 1 when one is over --limit-ms at 5 MB or
 * grows more than eight-fold. Timings, so a benchmark and not a test (two shared cores: noisy).
 * Run alone: npx tsx test/bench/perf-readers.ts [--only NAME] [--limit-ms 10000]
 */
import { parseArgs } from 'node:util';
import { parseAsciidoc } from '../../electron/core/ingest/readers/asciidoc';
import { parseLatex } from '../../electron/core/ingest/readers/latex';
import { mdxAsMarkdown } from '../../electron/core/ingest/readers/mdx';
import { parseOrg } from '../../electron/core/ingest/readers/org';
import { parseRst } from '../../electron/core/ingest/readers/rst';

const { values } = parseArgs({ options: { only: { type: 'string' }, 'limit-ms': { type: 'string', default: '10000' } } });
const LIMIT = Number(values['limit-ms']);
const MB = 1024 * 1024;
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
/** Lines each indented one space more than the one before (directives nested in each other's bodies). */
const staircase = (line: string, size: number) => {
  const out: string[] = [];
  for (let depth = 0, total = 0; total < size; depth++) {
    out.push(' '.repeat(depth) + line);
    total += depth + line.length;
  }
  return out.join('').slice(0, size);
};

/** Each input as a function of its size in bytes: one huge line, or a huge number of hostile lines. */
const INPUTS: Record<string, (n: number) => string> = {
  'one line of a': (n) => fill('a', n),
  'backticks': (n) => fill('`', n),
  'backtick then spaces': (n) => '`' + fill(' ', n),
  'unclosed roles': (n) => fill(':a:`', n),
  'role names': (n) => fill(':a', n) + '`',
  'unclosed literals': (n) => fill('``a', n),
  'unclosed rst links': (n) => fill('`x <y', n),
  'lines of =====': (n) => fill('=====\n', n),
  'lines of ~~~~~': (n) => fill('~~~~~\n', n),
  'titles': (n) => fill('Title\n=====\n\n', n),
  'overlined titles': (n) => fill('=====\nT\n', n),
  'comments ..': (n) => fill('.. \n', n),
  'literal paragraphs': (n) => fill('a::\n\n x\n', n),
  'directives': (n) => fill('.. note:: a\n   b\n', n),
  'nested directives': (n) => staircase('.. note::\n', n),
  'signatures with options': (n) => fill('.. option:: -a\n   -b\n   :c: d\n', n),
  'references': (n) => fill('`a`_', n),
  'lines of one backtick': (n) => fill('a `b\n', n),
  'wrapped roles': (n) => fill(':ref:`a <b\nc>` ``d\n', n),
  'open brackets': (n) => fill('[', n),
  'close brackets': (n) => fill(']', n),
  'org link openers': (n) => fill('[[a][', n),
  'xref openers <<': (n) => fill('<<', n),
  'xref with comma': (n) => fill('<<a,', n),
  'addresses then [': (n) => fill('https://a[', n),
  'addresses with dots': (n) => fill('https://a.', n),
  'link: then [': (n) => fill('link:a[', n),
  'xref: then [': (n) => fill('xref:a[', n),
  'title then spaces and =': (n) => '== a' + fill(' ', n) + '=x',
  'attribute braces': (n) => ':a: b\n' + fill('{a', n),
  'org headings': (n) => fill('* a\n', n),
  'unclosed src blocks': (n) => fill('#+begin_src\n', n),
  'drawers': (n) => fill(':a:\n', n),
  'blocks of many names': (n) => Array.from({ length: Math.ceil(n / 24) }, (_, i) => `#+begin_a${i}\n#+end_b${i}\n`).join('').slice(0, n),
  'import then backslashes': (n) => "import x from '" + fill('\\', n),
  'import then escaped quotes': (n) => 'import ' + fill("\\'", n),
  'unclosed import': (n) => 'import {' + fill('a,\n', n),
  'unclosed mdx comment': (n) => '{/*' + fill('a\n', n),
  'spaces then x': (n) => fill(' ', n) + 'x',
  'blank lines': (n) => fill('\n', n),
  'fence lines': (n) => fill('```\n', n),
  'latex nested braces': (n) => '\\emph{' + fill('{a}', n),
  'latex unclosed arguments': (n) => fill('\\textbf{\\href{a}{', n),
  'latex sections': (n) => fill('\\section{a}\n', n),
  'latex unclosed listings': (n) => fill('\\begin{lstlisting}\n', n),
  'latex escaped percents': (n) => fill('\\%', n) + '%',
};

const READERS: Record<string, (s: string) => string> = {
  rst: (s) => parseRst(s).text,
  latex: (s) => parseLatex(s).text,
  asciidoc: (s) => parseAsciidoc(s).text,
  org: (s) => parseOrg(s).text,
  mdx: (s) => mdxAsMarkdown(s),
};

const lineCount = (s: string) => s.split('\n').length;
let failed = false;
console.log(`${'input'.padEnd(28)} ${Object.keys(READERS).map((r) => `${r} (1.25/5 MB, ms)`.padStart(24)).join('')}`);
for (const [name, make] of Object.entries(INPUTS)) {
  if (values.only && !name.includes(values.only)) continue;
  const cells: string[] = [];
  for (const [reader, read] of Object.entries(READERS)) {
    const time = (size: number) => {
      const input = make(size);
      const t = performance.now();
      const out = read(input);
      const ms = performance.now() - t;
      if (lineCount(out) !== lineCount(input)) {
        failed = true;
        cells.push('LINE COUNT CHANGED');
      }
      return ms;
    };
    const small = time(1.25 * MB);
    const large = time(5 * MB);
    const bad = large > LIMIT || (large > 50 && large / Math.max(small, 1) > 8);
    if (bad) failed = true;
    cells.push(`${small.toFixed(0)}/${large.toFixed(0)}${bad ? ' SLOW' : ''}`.padStart(24));
  }
  console.log(`${name.padEnd(28)} ${cells.join('')}`);
}
process.exitCode = failed ? 1 : 0;
