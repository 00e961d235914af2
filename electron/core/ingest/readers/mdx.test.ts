import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../chunkers/index';
import { readerFor } from './index';
import { mdxAsMarkdown, mdxReader } from './mdx';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('mdx reader', () => {
  it('is the reader for .mdx files', () => {
    expect(readerFor('docs/intro.MDX')?.name).toBe('mdx');
  });

  it('blanks import and export statements, one line or several, and keeps every line number', () => {
    const source = [
      '---',
      'title: Installation',
      '---',
      "import Tabs from '@theme/Tabs';",
      'import {',
      '  TabItem,',
      '  Admonition,',
      "} from '@theme/components';",
      'export const meta = {',
      "  authors: ['ana'],",
      '};',
      '',
      '# Install',
      '',
      'Run the installer, then restart.',
    ].join('\n');
    const out = mdxAsMarkdown(source);
    expect(out.split('\n')).toHaveLength(source.split('\n').length);
    expect(out).not.toMatch(/import|export|TabItem|authors/);
    expect(out.split('\n')[12]).toBe('# Install');
    const read = mdxReader.read(utf8(source));
    expect(read.title).toBe('Installation');
    expect(read.text).toContain('Run the installer, then restart.');
  });

  it('keeps import lines inside fenced code, and prose that merely begins with the word', () => {
    const source = ['# Usage', '', '```js', "import { createServer } from 'node:http';", '```', '', 'Important: exporting needs a key.', 'Export the report as CSV.'].join('\n');
    const out = mdxAsMarkdown(source);
    expect(out).toContain("import { createServer } from 'node:http';");
    expect(out).toContain('Important: exporting needs a key.');
    expect(out).toContain('Export the report as CSV.');
  });

  it('reads JSX components as their text and MDX comments as nothing', () => {
    const source = ['# Setup', '', '{/* TODO: screenshots */}', '', '<Tabs groupId="pm">', '', '<TabItem value="npm">', '', 'Install with npm and run the build.', '', '</TabItem>', '', '</Tabs>'].join('\n');
    const read = mdxReader.read(utf8(source));
    expect(read.text).not.toContain('TODO');
    expect(read.text).not.toContain('groupId');
    expect(read.text).toContain('Install with npm and run the build.');
    const chunks = chunkDocument({ title: read.title ?? 'x', text: read.text, firstLine: read.firstLine });
    expect(chunks[0]!.headingPath).toBe('Setup');
  });

  it("keeps an admonition's title and text, not its fences", () => {
    const out = mdxAsMarkdown([':::warning[Back up first]', '', 'Upgrading rewrites the index.', '', ':::', ':::tip Faster imports', 'Skip embeddings.', ':::'].join('\n'));
    expect(out.split('\n')).toEqual(['Back up first', '', 'Upgrading rewrites the index.', '', '', 'Faster imports', 'Skip embeddings.', '']);
  });
});
