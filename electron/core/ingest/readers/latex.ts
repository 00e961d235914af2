import { decodeText } from './decode';
import { asTextLine, atxHeading, fenceFor } from './markdown-lines';
import type { ReaderModule, ReadResult } from './types';

export const latexReader = {
  name: 'latex',
  read(bytes) {
    return parseLatex(decodeText(bytes));
  },
} satisfies ReaderModule;

/**
 * A LaTeX source (papers, theses, lecture notes) read line for line into the Markdown the chunkers
 * know, so citations point at the file's own lines:
 * - `\chapter`, `\section`, `\subsection`, `\subsubsection` (starred or not) become ATX headings, the
 *   highest level the document uses as `#`; `\title{…}` gives the title;
 * - the preamble (before `\begin{document}`), `%` comments, `\label`, `\cite` and lone
 *   `\begin{…}`/`\end{…}` lines go blank; `\item` is a list item;
 * - `verbatim`, `lstlisting`, `minted` and `Verbatim` environments become fences (code stays one piece);
 * - `\emph{x}`, `\textbf{x}`, `\textit{x}` read as their text, `\texttt{x}` as code, `\href{url}{text}` as
 *   a Markdown link, `\url{x}` as its address, `\footnote{x}` as "(x)"; `\%`, `\&`, `\_`, `\#`, `\$` as
 *   their characters. Mathematics stays as written.
 * Not a TeX engine: macros the document defines are not expanded.
 */
export function parseLatex(source: string): ReadResult {
  const lines = source.split('\n');
  const begin = lines.findIndex((l) => /^\s*\\begin\{document\}/.test(l));
  let title: string | null = null;
  for (const line of begin > 0 ? lines.slice(0, begin) : lines) {
    const m = /^\s*\\title(?:\[[^\]\n]*\])?\{([^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*)\}/.exec(line);
    if (m) {
      title = inline(m[1]!).trim() || null;
      break;
    }
  }
  // The sectioning commands the document uses, in rank order: its highest is `#`.
  const found = new Set<string>();
  for (const l of lines) {
    const m = SECTION_NAME.exec(l);
    if (m) found.add(m[1]!);
  }
  const used = SECTIONS.filter((name) => found.has(name));
  const levelOf = (name: string) => used.indexOf(name) + 1;
  let code: { end: RegExp; from: number; language: string } | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i <= begin) {
      lines[i] = '';
      continue;
    }
    if (code !== null) {
      if (code.end.test(line)) {
        const fence = fenceFor(lines.slice(code.from + 1, i));
        lines[code.from] = fence + code.language;
        lines[i] = fence;
        code = null;
      }
      continue;
    }
    const listing = /^\s*\\begin\{(verbatim|Verbatim|lstlisting|minted)\}(?:\[([^\]\n]*)\])?(?:\{([^}\n]*)\})?\s*$/.exec(line);
    if (listing) {
      const language = listing[1] === 'minted' ? (listing[3] ?? '') : (/language=([\w+#-]+)/.exec(listing[2] ?? '')?.[1] ?? '');
      code = { end: new RegExp(`^\\s*\\\\end\\{${listing[1]}\\}`), from: i, language: language.toLowerCase() };
      continue;
    }
    const text = withoutComment(line);
    const section = SECTION.exec(text);
    if (section) {
      lines[i] = atxHeading(levelOf(section[1]!), `${inline(section[2]!)} ${inline(section[3]!)}`.trim());
      continue;
    }
    if (/^\s*\\(?:begin|end)\{[^}\n]*\}(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})*\s*$/.test(text) || /^\s*\\(?:end\{document\}|maketitle|tableofcontents|newpage|clearpage|bibliography\w*\{[^}\n]*\})\s*$/.test(text)) {
      lines[i] = '';
      continue;
    }
    const item = /^(\s*)\\item(?:\[([^\]\n]*)\])?\s*(.*)$/.exec(text);
    lines[i] = item ? `${item[1]}- ${item[2] ? `${inline(item[2])}: ` : ''}${inline(item[3]!)}` : asTextLine(inline(text));
  }
  // An environment left open runs to the end as code, as the chunkers read an unclosed fence.
  if (code !== null) lines[code.from] = fenceFor(lines.slice(code.from + 1)) + code.language;
  return { text: lines.join('\n'), title, firstLine: 1 };
}

const SECTIONS = ['part', 'chapter', 'section', 'subsection', 'subsubsection'];
const SECTION_NAME = new RegExp(String.raw`^\s*\\(${SECTIONS.join('|')})\*?[[{]`);

/** The line up to its first `%` that is not escaped (`\%`). */
function withoutComment(line: string): string {
  for (let i = line.indexOf('%'); i >= 0; i = line.indexOf('%', i + 1)) {
    let slashes = 0;
    for (let j = i - 1; j >= 0 && line[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 0) return line.slice(0, i).trimEnd();
  }
  return line;
}

/** One brace group's content, without nested groups beyond one level (linear). */
const ARG = String.raw`\{([^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*)\}`;
const SECTION = new RegExp(String.raw`^\s*\\(${SECTIONS.join('|')})\*?(?:\[[^\]\n]*\])?${ARG}(.*)$`);
const STYLE = new RegExp(String.raw`\\(?:emph|textbf|textit|textsl|textsc|underline|textrm|textsf|mbox)${ARG}`, 'g');
const CODE = new RegExp(String.raw`\\(?:texttt|verb)${ARG}`, 'g');
const HREF = new RegExp(String.raw`\\href\{([^{}\n]*)\}${ARG}`, 'g');
const URL = new RegExp(String.raw`\\url\{([^{}\n]*)\}`, 'g');
const FOOTNOTE = new RegExp(String.raw`\\footnote${ARG}`, 'g');
const DROPPED = /\\(?:label|cite[tp]?|ref|eqref|pageref|index)\*?(?:\[[^\]\n]*\])?\{[^{}\n]*\}/g;

/** What a reader of the typeset page sees of a line's commands. */
function inline(text: string): string {
  if (!text.includes('\\') && !text.includes('~') && !text.includes('``')) return text;
  let out = text;
  // Inside out: `\textbf{\emph{x}}` needs two rounds.
  for (let round = 0; round < 3; round++) {
    const next = out.replace(STYLE, '$1').replace(CODE, '`$1`').replace(HREF, '[$2]($1)').replace(FOOTNOTE, ' ($1)');
    if (next === out) break;
    out = next;
  }
  return out
    .replace(URL, '$1')
    .replace(DROPPED, '')
    .replace(/\\([%&_#$])/g, '$1')
    .replace(/(?<!\\)~/g, ' ')
    .replace(/``|''/g, '"')
    .replace(/\\\\\s*$/, '');
}
