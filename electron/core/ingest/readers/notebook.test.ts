import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { parseOutline } from '../chunkers/markdown';
import { readerFor } from './index';
import { notebookReader, readNotebook } from './notebook';

const utf8 = (s: string) => new TextEncoder().encode(s);

const notebook = {
  nbformat: 4,
  metadata: { kernelspec: { language: 'python', name: 'python3' }, language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', source: ['# Sales analysis\n', '\n', 'Quarterly <b>revenue</b> by region.'] },
    { cell_type: 'code', source: 'df = load("sales.csv")\ndf.groupby("region").sum()', outputs: [{ output_type: 'execute_result', data: { 'text/plain': ['region  total\n', 'north   1200'], 'image/png': 'iVBORw0KGgo=' } }] },
    { cell_type: 'code', source: ['print("```")'], outputs: [{ output_type: 'stream', name: 'stdout', text: ['```\n'] }, { output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=' } }] },
    { cell_type: 'markdown', source: 'Findings\n--------\n\nThe north region grew fastest.' },
  ],
};

describe('notebook reader', () => {
  it('is the reader for .ipynb files', () => {
    expect(readerFor('analysis/Sales.IPYNB')?.name).toBe('notebook');
  });

  it('reads Markdown cells as Markdown, code as fences in the kernel language, text outputs after them, no images', () => {
    const read = notebookReader.read(utf8(JSON.stringify(notebook)));
    expect(read.title).toBe('Sales analysis');
    expect(read.text).toContain('# Sales analysis');
    expect(read.text).toContain('Quarterly revenue by region.');
    expect(read.text).toContain('```python\ndf = load("sales.csv")\ndf.groupby("region").sum()\n```');
    expect(read.text).toContain('```\nregion  total\nnorth   1200\n```');
    // Code holding backticks gets a longer fence, so it cannot close early.
    expect(read.text).toContain('````python\nprint("```")\n````');
    expect(read.text).toContain('## Findings');
    expect(read.text).not.toContain('iVBORw0KGgo');
  });

  it("ends a Markdown cell's unclosed fence with the cell, as Jupyter renders each cell alone", () => {
    const cells = [
      { cell_type: 'markdown', source: '# Setup\n\nInstall:\n\n~~~~bash\npip install pandas' },
      { cell_type: 'markdown', source: '## Results\n\nThe north region grew fastest.' },
    ];
    const read = readNotebook(JSON.stringify({ cells }));
    expect(read.text).toContain('~~~~bash\npip install pandas\n~~~~\n\n## Results');
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Setup', 'Setup > Results']);
  });

  it('fails as a damaged file, with a sentence, when the JSON is broken or holds no cells', () => {
    for (const bad of ['{"cells": [', '{"worksheets": []}']) {
      try {
        readNotebook(bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(QuireError);
        expect((e as QuireError).code).toBe('CORRUPT_FILE');
        expect((e as QuireError).message).toMatch(/notebook|JSON/);
      }
    }
  });
});
