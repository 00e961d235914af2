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
});
