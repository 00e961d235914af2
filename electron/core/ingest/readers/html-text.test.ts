import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { htmlReader } from './html';
import { htmlToText } from './html-text';
import type { ReadResult } from './types';

describe('htmlToText', () => {
  it('keeps headings as # lines and paragraphs apart, collapsing whitespace', () => {
    const { text } = htmlToText('<h1>Brewing\n  guide</h1><p>Water   first.</p><p>Then\tleaves.</p><h2>Kinds <em>of</em> tea</h2><p>Green.</p>');
    expect(text).toBe('# Brewing guide\n\nWater first.\n\nThen leaves.\n\n## Kinds of tea\n\nGreen.');
  });

  it("leaves a heading's permalink out of its name, and keeps a name that ends in a mark", () => {
    const html = [
      '<title>Readline | Node.js v20 Documentation</title>',
      '<h1>Readline<span><a class="mark" href="#readline">#</a></span><a id="readline_readline"></a></h1>',
      '<h2>Installation<a class="headerlink" href="#installation" title="Link to this heading">¶</a></h2>',
      '<h2>Using C#</h2>',
      '<h3>See <a href="other.html">the guide</a> <a href="#x">🔗</a></h3>',
    ].join('');
    const { text, title } = htmlToText(html);
    expect(text.split('\n').filter((l) => l.startsWith('#'))).toEqual(['# Readline', '## Installation', '## Using C#', '### See the guide']);
    // A <title> that is the h1 with the site's name: the h1 alone names the page.
    expect(title).toBe('Readline');
    expect(htmlToText('<title>Release notes</title><h1>Version 2</h1>').title).toBe('Release notes');
    // A heading that is only a word of the title is not its page's name.
    expect(htmlToText('<title>Getting started with Rust | Blog</title><h2>Rust</h2>').title).toBe('Getting started with Rust | Blog');
    expect(htmlToText('<title>Installation — Flask Documentation (3.0.x)</title><h1>Installation</h1>').title).toBe('Installation');
    // The site's name as the h1 of every page (Node's docs): the title's other part is the page's.
    expect(htmlToText('<title>Readline | Node.js v20 Documentation</title><h1>Node.js v20 documentation</h1><h2>Readline</h2>').title).toBe('Readline');
    // The site's h1 in a page banner that is left out: the first heading is the page's name.
    expect(htmlToText('<title>Readline | Node.js v20 Documentation</title><header><h1>Node.js v20 documentation</h1></header><h2>Readline</h2><p>Text.</p>').title).toBe('Readline');
  });

  it("names a generated book's page by its h1, not the chapter's name and the book's (mdBook, Docusaurus)", () => {
    // mdBook: <title> is the SUMMARY's chapter name and the book's; the menu bar shows the book's name alone.
    const mdbook = (main: string, title = 'Arc - The Rustonomicon') =>
      `<html><head><!-- Book generated using mdBook --><title>${title}</title></head><body><div id="menu-bar"><h1 class="menu-title">The Rustonomicon</h1></div>` +
      `<div id="content"><main>${main}</main></div></body></html>`;
    const page = htmlToText(mdbook('<h1 id="implementing-arc"><a class="header" href="#implementing-arc">Implementing Arc</a></h1><p>Text.</p><h2>Base Code</h2><p>More.</p>'));
    expect(page.title).toBe('Implementing Arc');
    expect(parseOutline(page.text, page.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Implementing Arc', 'Implementing Arc > Base Code']);
    // No h1: the chapter's name without the book's.
    expect(htmlToText(mdbook('<p>Text.</p>')).title).toBe('Arc');
    // A title that is only the book's name stays the title.
    expect(htmlToText(mdbook('<p>Text.</p>', 'The Rustonomicon')).title).toBe('The Rustonomicon');
    // Docusaurus: the navbar shows the site's name.
    expect(htmlToText('<title>Tabs | Docusaurus</title><nav><b class="navbar__title">Docusaurus</b></nav><main><h1>Tabs and tab groups</h1></main>').title).toBe('Tabs and tab groups');
    // A site whose name is not shown alone on the page keeps its title (the name may be the page's).
    expect(htmlToText('<title>Arc - The Rustonomicon</title><main><h1>Implementing Arc</h1></main>').title).toBe('Arc - The Rustonomicon');
  });

  it('decodes entities in text and title', () => {
    const r = htmlToText('<title>Tea &amp; Biscuits</title><p>95&nbsp;&deg;C &mdash; not &lt;boiling&gt; &#x1F375;</p>');
    expect(r.title).toBe('Tea & Biscuits');
    expect(r.text).toBe('95 °C — not <boiling> 🍵');
  });

  it('drops scripts, styles, navigation, forms, embedded media and hidden parts', () => {
    const { text } = htmlToText(
      `<head><style>p{color:red}</style><script>var secret = 1;</script></head><body>
       <header><nav><a href="/">Home</a></nav>Site banner</header>
       <main><p>Kept.</p><noscript>Enable JS</noscript><template><p>template</p></template>
       <aside>Related</aside><form><label>Name</label><input name=q><button>Go</button></form>
       <iframe src="x"></iframe><svg><title>icon</title><text>drawn</text></svg><img src="x.png" alt="a picture">
       <div hidden>hidden</div><div role="navigation">menu</div></main>
       <footer>Copyright</footer></body>`,
    );
    expect(text).toBe('Kept.');
  });

  it('keeps an article’s own header (with its h1) but not the page banner', () => {
    const { text, title } = htmlToText('<header>Banner</header><article><header><h1>Post</h1></header><p>Body.</p><footer>By me</footer></article>');
    expect(text).toBe('# Post\n\nBody.\n\nBy me');
    expect(title).toBe('Post');
  });

  it('writes lists as - or numbered lines and tables one row per line', () => {
    const { text } = htmlToText(
      '<p>Intro</p><ul><li>Green</li><li>Black<ul><li>Assam</li></ul></li></ul><ol start="3"><li>Steep</li><li>Pour</li></ol>' +
        '<table><tr><th>Tea</th><th>Minutes</th></tr><tr><td><p>Green</p></td><td>2</td></tr><tr><td></td><td></td></tr></table><p>After</p>',
    );
    // A nested list's items are indented under their parent's text, as Markdown nests them.
    expect(text).toBe('Intro\n\n- Green\n- Black\n  - Assam\n\n3. Steep\n4. Pour\n\nTea | Minutes\nGreen | 2\n\nAfter');
    expect(htmlToText('<ol><li>Open<ol><li>Read<ul><li>options</li></ul></li></ol></li></ol>').text).toBe('1. Open\n   1. Read\n      - options');
  });

  it('keeps preformatted text as a code fence longer than any backticks inside it', () => {
    const { text } = htmlToText('<pre><code>```\n# comment\n  indented\n</code></pre><p>Next</p>');
    expect(text).toBe('````\n```\n# comment\n  indented\n````\n\nNext');
  });

  it('escapes text lines the chunkers would read as headings or fences', () => {
    const { text } = htmlToText('<p># not a heading</p><p>```not a fence</p><p>---</p>');
    expect(text).toBe('\\# not a heading\n\n\\```not a fence\n\n\\---');
    expect(parseOutline(text, 'Doc').headings).toEqual([]);
  });

  it('leaves a generated "¶" or "§" permalink out of the heading', () => {
    expect(htmlToText('<h2>Install<a class="headerlink" href="#install">¶</a></h2><h2>Impls<a class="anchor">§</a></h2><h2>C#</h2>').text).toBe('## Install\n\n## Impls\n\n## C#');
  });

  it('reads only the main content of a page that marks it, else the whole page', () => {
    const page = '<title>T</title><div class="menu-bar"><h1>Book</h1></div><div id="help"><h2>Keyboard shortcuts</h2></div><main><h1>Chapter</h1><p>Text.</p></main>';
    expect(htmlToText(page)).toEqual({ text: '# Chapter\n\nText.', title: 'T' });
    expect(htmlToText('<div role="main"><p>Inside.</p></div><p>Outside.</p>').text).toBe('Inside.');
    expect(htmlToText('<script>"<main>"</script><p>No real main.</p>').text).toBe('No real main.');
  });

  it('gives the heading path the chunkers build', () => {
    const { text } = htmlToText('<h1>Guide</h1><h2>Setup</h2><h3>Keys</h3><p>Rotate them.</p>');
    expect(parseOutline(text, 'Guide').headings.at(-1)?.path).toEqual(['Guide', 'Setup', 'Keys']);
  });

  it('takes the title from <title>, else the first h1, else the first heading', () => {
    expect(htmlToText('<title> A  page </title><h1>Heading</h1>').title).toBe('A page');
    expect(htmlToText('<h2>Second</h2><h1>First one</h1>').title).toBe('First one');
    expect(htmlToText('<h3>Only</h3>').title).toBe('Only');
    expect(htmlToText('<p>None</p>').title).toBeNull();
  });

  it('survives unclosed and stray tags', () => {
    expect(htmlToText('<p>unclosed <b>bold <i>both').text).toBe('unclosed bold both');
    expect(htmlToText('</div></p>text<li>loose</td>').text).toBe('text\nloose');
  });

  it('sets each of two listings in one <pre> on lines of their own', () => {
    const html = [
      '<p>To use it:</p>',
      '<pre class="with-42-chars"><input class="js-flavor-toggle" type="checkbox" checked aria-label="Show modern ES modules syntax">',
      '<code class="language-js mjs"><span class="hljs-keyword">import</span> * as readline from \'node:readline\';</code>',
      '<code class="language-js cjs">const readline = require(\'node:readline\');\n</code><code class="language-js">readline.clearLine();</code></pre>',
      '<pre>Run <code>ls</code> now</pre>',
    ].join('');
    expect(htmlToText(html).text.split('\n')).toEqual([
      'To use it:',
      '',
      '```',
      "import * as readline from 'node:readline';",
      '',
      "const readline = require('node:readline');",
      '',
      'readline.clearLine();',
      '```',
      '',
      '```',
      'Run ls now',
      '```',
    ]);
  });

  it("with promoteHeadings, makes the page's highest heading # and the rest follow, so a method under a class is a section", () => {
    const html = [
      '<title>Readline | Node.js Docs</title>',
      '<header><h1>Node.js documentation</h1></header>',
      '<h2>Readline</h2><p>Reads lines.</p>',
      '<h3>Class: Interface</h3><p>An interface.</p>',
      '<h4>rl.close()</h4><p>Closes it.</p>',
      '<pre>## not a heading</pre>',
    ].join('');
    const promoted = htmlToText(html, { promoteHeadings: true });
    expect(promoted.text.split('\n').filter((l) => /^#+ /.test(l))).toEqual(['# Readline', '## Class: Interface', '### rl.close()', '## not a heading']);
    expect(promoted.text).toContain('```\n## not a heading\n```');
    expect(promoted.title).toBe('Readline');
    expect(parseOutline(promoted.text, promoted.title!).headings.map((h) => h.path.join(' > '))).toContain('Readline > Class: Interface > rl.close()');
    // Without the option (an EPUB's pages), levels stay as the page has them.
    expect(htmlToText(html).text).toContain('#### rl.close()');
    expect((htmlReader.read(new TextEncoder().encode(html)) as ReadResult).text).toContain('\n### rl.close()\n');
  });

  it('writes inline code as Markdown code spans, except in headings', () => {
    const html = '<h3>Class: <code>http.Server</code></h3><p>Call <code>rl.close()</code> or press <kbd>Ctrl</kbd>+<kbd>C</kbd>; see <a href="#x"><code>fs.readFile()</code></a> and <code>a`b</code>.</p>' +
      '<table><tr><td><code>--jobs</code></td><td>Threads</td></tr></table>';
    expect(htmlToText(html).text.split('\n').filter((l) => l !== '')).toEqual([
      '### Class: http.Server',
      'Call `rl.close()` or press `Ctrl`+`C`; see `fs.readFile()` and ``a`b``.',
      '`--jobs` | Threads',
    ]);
  });
});
