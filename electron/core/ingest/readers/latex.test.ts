import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { readerFor } from './index';
import { latexReader, parseLatex } from './latex';

const utf8 = (s: string) => new TextEncoder().encode(s);
const lineCount = (s: string) => s.split('\n').length;

const paper = [
  '\\documentclass{article}',
  '\\usepackage{listings}',
  '\\title{Caching \\emph{Remote} Reads}',
  '\\begin{document}',
  '\\maketitle',
  '\\section{Introduction}\\label{sec:intro}',
  'Reads from the archive cost 40\\% of the budget~\\cite{smith20}. % TODO: cite newer work',
  '\\subsection*{Design}',
  'We keep \\textbf{hot} blocks in RAM, see \\href{https://example.com/lru}{the LRU note}.\\footnote{Measured in May.}',
  '\\begin{itemize}',
  '  \\item Evict by age',
  '  \\item[Size] Cap at \\texttt{max\\_bytes}',
  '\\end{itemize}',
  '\\begin{lstlisting}[language=Python]',
  '# a comment, not a heading',
  'cache = LRU(1024)',
  '\\end{lstlisting}',
  '\\section{Results}',
  'Hit rate rose to 93\\%.',
  '\\end{document}',
].join('\n');

describe('latex reader', () => {
  it('is the reader for .tex files', () => {
    expect(readerFor('thesis/Chapter1.TEX')?.name).toBe('latex');
  });

  it('reads sections as headings under the title, and the text as a reader of the page sees it, line for line', () => {
    const read = latexReader.read(utf8(paper));
    expect(read.title).toBe('Caching Remote Reads');
    expect(lineCount(read.text)).toBe(lineCount(paper));
    const lines = read.text.split('\n');
    expect(lines.slice(0, 5)).toEqual(['', '', '', '', '']);
    expect(lines[5]).toBe('# Introduction');
    expect(lines[6]).toBe('Reads from the archive cost 40% of the budget .');
    expect(lines[8]).toBe('We keep hot blocks in RAM, see [the LRU note](https://example.com/lru). (Measured in May.)');
    expect(lines.slice(9, 13)).toEqual(['', '  - Evict by age', '  - Size: Cap at `max_bytes`', '']);
    expect(lines.slice(13, 17)).toEqual(['```python', '# a comment, not a heading', 'cache = LRU(1024)', '```']);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Caching Remote Reads > Introduction', 'Caching Remote Reads > Introduction > Design', 'Caching Remote Reads > Results']);
  });

  it('keeps an escaped percent sign, and takes the highest sectioning level used as the first', () => {
    const read = parseLatex(['\\chapter{Methods}', 'A 5\\% sample. % hidden', '\\section{Sampling}', 'Done.'].join('\n'));
    expect(read.text.split('\n')).toEqual(['# Methods', 'A 5% sample.', '## Sampling', 'Done.']);
  });

  it('reads a line that would look like a heading to the chunkers as text', () => {
    // `\#` typesets as "#": at the start of a line the chunkers would take it for a heading.
    expect(parseLatex('\\# of retries is capped.').text).toBe('\\# of retries is capped.');
    expect(parseOutline(parseLatex('\\# of retries is capped.').text, 'x').headings).toEqual([]);
  });
});
