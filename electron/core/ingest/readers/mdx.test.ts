import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../chunkers/index';
import { parseOutline } from '../chunkers/markdown';
import { readerFor } from './index';
import { bracketBalance, mdxAsMarkdown, mdxReader } from './mdx';

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

  it('counts a statement\'s brackets outside its strings and comments, on any line in one pass', () => {
    expect(bracketBalance("export const a = { b: '}', c: \"\\\"{\", d: `)`,")).toBe(1);
    expect(bracketBalance("export const theme = { // don't {")).toBe(1);
    // A run of backslashes in an unclosed string: a pattern for the literals took 0.8 s at 36 of them, doubling with each two more.
    expect(bracketBalance("import x from '" + '\\'.repeat(5000))).toBe(0);
    const source = ["export const pattern = '" + '\\'.repeat(5000), '', '# Patterns', 'Escapes are doubled.'].join('\n');
    expect(mdxAsMarkdown(source).split('\n')).toEqual(['', '', '# Patterns', 'Escapes are doubled.']);
  });

  it('reads a line starting with "import" that continues a paragraph as prose, as MDX does (ESM never interrupts one)', () => {
    const source = ['Some notes about modules, where', 'import statements are hoisted.', '', "import X from 'y';", '', '# Title', "export const a = 1;"].join('\n');
    expect(mdxAsMarkdown(source).split('\n')).toEqual(['Some notes about modules, where', 'import statements are hoisted.', '', '', '', '# Title', '']);
  });

  it("reads the text after a comment's close, and a comment that closes mid-line ends there", () => {
    const source = ['{/* prettier-ignore */} The table below is generated.', '', '# Next', 'More text.', '{/* two', 'lines */}', 'Text.'].join('\n');
    expect(mdxAsMarkdown(source).split('\n')).toEqual(['The table below is generated.', '', '# Next', 'More text.', '', '', 'Text.']);
  });

  it('reads a JSX element whose opening tag spans lines as its text, its attributes left out', () => {
    const source = [
      '# Install',
      '',
      '<Tabs',
      '  groupId="package-manager"',
      "  items={['npm', 'yarn']}",
      '>',
      '  <TabItem value="npm" label="npm">',
      '    Run the installer with **npm**.',
      '  </TabItem>',
      '</Tabs>',
      '',
      'Press the <Button',
      '  variant="primary"',
      '  onClick={() => save()}>Save</Button> button.',
      '',
      '<Card icon={<Rocket size={16} />} title="Quick start" />',
    ].join('\n');
    const read = mdxReader.read(utf8(source));
    const lines = read.text.split('\n');
    expect(lines).toHaveLength(source.split('\n').length);
    expect(read.text).not.toMatch(/groupId|items|yarn|variant|onClick|save\(|Rocket|size|[<>{}]/);
    expect(lines[6]!.trim()).toBe('npm'); // a tab's label is read, as an image's alt text is
    expect(lines[7]!.trim()).toBe('Run the installer with **npm**.');
    expect(lines.slice(11, 14).join(' ').replace(/\s+/g, ' ').trim()).toBe('Press the Save button.');
    expect(lines[15]).toBe('Quick start');
    const chunks = chunkDocument({ title: read.title ?? 'x', text: read.text, firstLine: read.firstLine });
    expect(chunks.map((c) => c.headingPath)).toEqual(['Install']);
  });

  it('blanks an export whose template literal spans lines, and keeps the headings after it', () => {
    const source = ['# A', '', 'export const snippet = `', 'function x() {', '  if (a) {', '`;', '', 'Text after.', '', '## B', '', 'More.'].join('\n');
    const out = mdxAsMarkdown(source).split('\n');
    expect(out).toEqual(['# A', '', '', '', '', '', '', 'Text after.', '', '## B', '', 'More.']);
  });

  it('reads the content of a JSX element indented past four columns as MDX does (no indented code), its fence a fence', () => {
    const source = ['# Setup', '', '<Steps>', '    ## Configure', '', '    Set the host first.', '', '    ```sh', '    # not a heading', '    quire import ~/notes', '    ```', '</Steps>', '', 'Done.'].join('\n');
    const read = mdxReader.read(utf8(source));
    const lines = read.text.split('\n');
    expect(lines.slice(3, 11)).toEqual(['## Configure', '', 'Set the host first.', '', '```sh', '# not a heading', 'quire import ~/notes', '```']);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Setup', 'Setup > Configure']);
  });

  it('reads MDX 1, which MDX 3 refuses (an HTML comment, an unclosed <br>), line by line as before', () => {
    const source = ["import Tabs from '@theme/Tabs';", '', '# Upgrade', '', '<!-- truncate -->', 'Back up first.<br>', 'Then run the installer.'].join('\n');
    const read = mdxReader.read(utf8(source));
    expect(read.text.split('\n')).toEqual(['', '', '# Upgrade', '', '', 'Back up first.', 'Then run the installer.']);
  });
});
