import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { asciidocReader, parseAsciidoc } from './asciidoc';
import { readerFor } from './index';

const utf8 = (s: string) => new TextEncoder().encode(s);
const lineCount = (s: string) => s.split('\n').length;

describe('asciidoc reader', () => {
  it('is the reader for .adoc and .asciidoc files', () => {
    expect(readerFor('docs/index.adoc')?.name).toBe('asciidoc');
    expect(readerFor('Guide.ASCIIDOC')?.name).toBe('asciidoc');
  });

  it('reads the document title and nests section titles under it, keeping every line number', () => {
    const source = [
      '= Deployment Guide',
      ':toc: left',
      ':icons: font',
      '',
      '== Install',
      '',
      'Download the archive.',
      '',
      '=== On Windows',
      '',
      '// TODO: screenshots of the wizard',
      'Run the installer as an administrator.',
      '',
      '[[upgrade]]',
      '== Upgrade',
      '',
      'Stop the service first.',
    ].join('\n');
    const read = asciidocReader.read(utf8(source));
    expect(read.title).toBe('Deployment Guide');
    expect(lineCount(read.text)).toBe(lineCount(source));
    expect(read.text).not.toMatch(/:toc:|icons|TODO|\[\[upgrade\]\]/);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual([
      'Deployment Guide',
      'Deployment Guide > Install',
      'Deployment Guide > Install > On Windows',
      'Deployment Guide > Upgrade',
    ]);
  });

  it('fences listing and literal blocks with their language, hides comment and passthrough blocks', () => {
    const source = ['== Run', '[source,bash]', '----', '= not a title', 'deploy --force', '----', '////', 'hidden note', '////', '++++', '<div>raw</div>', '++++', '....', 'literal text', '....'].join('\n');
    expect(parseAsciidoc(source).text.split('\n')).toEqual(['# Run', '', '```bash', '= not a title', 'deploy --force', '```', '', '', '', '', '', '', '```', 'literal text', '```']);
  });

  it('writes links as Markdown links and cross references as their text', () => {
    const line = 'See https://example.com/helm-charts[the charts], link:guide.html[the guide], xref:install.adoc#windows[Windows setup] and <<upgrade,Upgrading>>.';
    expect(parseAsciidoc(line).text).toBe('See [the charts](https://example.com/helm-charts), [the guide](guide.html), Windows setup and Upgrading.');
  });

  it('fences a listing about Markdown with a longer fence, so its ``` neither ends the code nor swallows the sections after it', () => {
    const source = ['== Writing docs', '[source,markdown]', '----', '```js', 'let x = 1;', '```', '# Not a heading', '----', '', '== Publishing', '', 'Run the site build.'].join('\n');
    const read = parseAsciidoc(source);
    expect(read.text.split('\n').slice(2, 8)).toEqual(['````markdown', '```js', 'let x = 1;', '```', '# Not a heading', '````']);
    expect(parseOutline(read.text, 'Guide').headings.map((h) => h.path.join(' > '))).toEqual(['Guide > Writing docs', 'Guide > Publishing']);
  });

  it('reads a Markdown fence as code and Markdown-style # titles as titles, as Asciidoctor does', () => {
    const source = ['## Build', '```ruby', '== not a title', ':not: an attribute', '```', '### Options'].join('\n');
    expect(parseAsciidoc(source).text.split('\n')).toEqual(['# Build', '```ruby', '== not a title', ':not: an attribute', '```', '## Options']);
  });

  it('keeps an indented literal line or a stray ~~~~ from reading as a heading or a fence', () => {
    const source = ['== Shell', '', ' # as root', ' apt install quire', '', 'Old-style underline', '~~~~~~~~~~~~~~~~~~~', '', '== Next', 'Text.'].join('\n');
    const read = parseAsciidoc(source);
    expect(read.text.split('\n')[2]).toBe(' \\# as root');
    expect(parseOutline(read.text, 'Guide').headings.map((h) => h.path.join(' > '))).toEqual(['Guide > Shell', 'Guide > Next']);
    expect(parseOutline(read.text, 'Guide').blocks.some((b) => b.kind === 'fence')).toBe(false);
  });

  it('reads an attribute reference as its value, so a product named once in the header is found everywhere', () => {
    const source = [':product: Quire Server', ':url-repo: https://github.com/example/quire', '', 'This handbook covers {product}.', 'See {url-repo}[the repository]; {unset} stays.', ':product!:', 'Now {product} is unset.', ':!toc:'].join('\n');
    expect(parseAsciidoc(source).text.split('\n')).toEqual(['', '', '', 'This handbook covers Quire Server.', 'See [the repository](https://github.com/example/quire); {unset} stays.', '', 'Now {product} is unset.', '']);
  });

  it("reads a quotation's attribution, and leaves out the delimiters of example, sidebar, quote and open blocks", () => {
    const source = ['[quote, Ada Lovelace, Notes]', '____', 'The engine weaves patterns.', '____', '****', 'Sidebar text.', '****', '--', 'Open block.', '--', '[NOTE]', '====', 'Back up first.', '===='].join('\n');
    expect(parseAsciidoc(source).text.split('\n')).toEqual(['Ada Lovelace, Notes', '', 'The engine weaves patterns.', '', '', 'Sidebar text.', '', '', 'Open block.', '', '', '', 'Back up first.', '']);
  });

  it('leaves an address with no [text] as written and links the next one', () => {
    expect(parseAsciidoc('Visit https://x.io/a, then https://x.io/b[B] and <<a<<b,Bee>>.').text).toBe('Visit https://x.io/a, then [B](https://x.io/b) and <<aBee.');
  });

  it('fences a [source] paragraph without delimiters, so its # comment is no title', () => {
    const source = ['== Install', '[source,bash]', '# as root', 'apt install quire', '', 'Then start it.'].join('\n');
    const read = parseAsciidoc(source);
    expect(read.text.split('\n')).toEqual(['# Install', '```bash', '# as root', 'apt install quire', '```', 'Then start it.']);
    expect(parseOutline(read.text, 'Guide').headings.map((h) => h.path.join(' > '))).toEqual(['Guide > Install']);
    expect(parseAsciidoc(['[source,bash]', '.Install it', '----', 'make', '----'].join('\n')).text.split('\n')).toEqual(['', '.Install it', '```bash', 'make', '```']);
  });
});
