import { QuireError } from '../../../../shared/errors';
import { decodeText } from './decode';
import { closingFence, parseMarkdown } from './markdown';
import { fenceAround } from './markdown-lines';
import type { ReaderModule, ReadResult } from './types';

export const notebookReader = {
  name: 'notebook',
  read(bytes) {
    return readNotebook(decodeText(bytes));
  },
} satisfies ReaderModule;

/**
 * A Jupyter notebook (nbformat 4) read as the Markdown a person sees in it: Markdown cells as they
 * are, code cells as fences in the notebook's language, and their text outputs (a print, a table's
 * text form) as plain fences after them; images, HTML and widget outputs are left out. A chunk's lines
 * count lines of this text, not of the JSON file (as for Word and HTML): the heading path locates it.
 * A notebook whose JSON is damaged fails alone as CORRUPT_FILE.
 */
export function readNotebook(source: string): ReadResult {
  let notebook: Notebook;
  try {
    notebook = JSON.parse(source) as Notebook;
  } catch {
    throw new QuireError('CORRUPT_FILE', 'This .ipynb file is not valid JSON, so it is not a Jupyter notebook Quire can read.');
  }
  if (!notebook || !Array.isArray(notebook.cells)) {
    throw new QuireError('CORRUPT_FILE', 'This .ipynb file has no list of cells (Quire reads notebooks in format 4, the one Jupyter has written since 2015).');
  }
  const language = notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? '';
  const parts: string[] = [];
  for (const cell of notebook.cells) {
    const text = joined(cell?.source).replace(/\s+$/, '');
    if (cell?.cell_type === 'markdown' && text !== '') {
      // Jupyter renders each cell alone: a fence left open ends with its cell, not at the notebook's end.
      const close = closingFence(text);
      parts.push(close === null ? text : `${text}\n${close}`);
    }
    else if (cell?.cell_type === 'code') {
      if (text !== '') parts.push(fenced(text, language));
      const output = (cell.outputs ?? []).map(outputText).filter((t) => t !== '').join('\n');
      if (output !== '') parts.push(fenced(output, ''));
    } else if (cell?.cell_type === 'raw' && text !== '') parts.push(text);
  }
  // Markdown cells may hold HTML and setext headings: the Markdown reader reduces them as in any note.
  const read = parseMarkdown(parts.join('\n\n'));
  const title = notebook.metadata?.title;
  if (!title) return read;
  const { titleIsHeading: _heading, ...rest } = read;
  return { ...rest, title };
}

interface Notebook {
  cells: Array<{ cell_type?: string; source?: string | string[]; outputs?: Output[] } | null>;
  metadata?: { title?: string; language_info?: { name?: string }; kernelspec?: { language?: string } };
}

interface Output {
  output_type?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
}

const joined = (s: string | string[] | undefined): string => (Array.isArray(s) ? s.join('') : (s ?? ''));

/** What a person reads of an output: a stream's text, or a result's plain-text form; not images or HTML. */
function outputText(o: Output): string {
  if (o.output_type === 'stream') return joined(o.text).replace(/\s+$/, '');
  if (o.output_type === 'execute_result' || o.output_type === 'display_data') return joined(o.data?.['text/plain']).replace(/\s+$/, '');
  return '';
}

/** The code fenced so that nothing in it can close the fence. */
function fenced(code: string, language: string): string {
  const fence = fenceAround(code);
  return `${fence}${language}\n${code}\n${fence}`;
}
