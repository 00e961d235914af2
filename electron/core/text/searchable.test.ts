import { describe, expect, it } from 'vitest';
import { headingAsRead, searchableText } from './searchable';

describe('searchableText: the words a reader of the rendered Markdown sees', () => {
  const cases: Array<[string, string, string]> = [
    ['an inline link keeps its text, not its address', 'See [the probes guide](https://kubernetes.io/docs/configure-liveness-probes/#configure-probes) first.', 'See [the probes guide] first.'],
    ['a title after the address goes with it', 'Read [Pino](https://getpino.io "Pino docs") and [x](y \'t\') and [z](w (t)).', 'Read [Pino] and [x] and [z].'],
    ['an address in angle brackets, with spaces', 'Open [the file](<my notes/setup file.md>) now.', 'Open [the file] now.'],
    ['one level of parentheses inside an address', 'The [Rust type](https://en.wikipedia.org/wiki/Rust_(programming_language)) page.', 'The [Rust type] page.'],
    ['an image keeps its alt text', '![diagram of the lifecycle](./resources/lifecycle.svg)', '![diagram of the lifecycle]'],
    ['a table of contents keeps the headings it lists, not their anchors', '- [FST_ERR_DUPLICATED_ROUTE](#fst_err_duplicated_route)', '- [FST_ERR_DUPLICATED_ROUTE]'],
    ['a reference link keeps its text, not its label', 'as [Chapter 9][ch09-00] explains, or [this][]', 'as [Chapter 9] explains, or [this]'],
    ['a link in a heading', '### [Mongo](https://github.com/fastify/fastify-mongodb)', '### [Mongo]'],
  ];
  it.each(cases)('%s', (_, input, expected) => {
    expect(searchableText(input)).toBe(expected);
  });

  it('drops reference definitions, which a reader never sees, and keeps the lines around them', () => {
    const input = ['The end of the chapter.', '', '[ch09-00]: ch09-00-error-handling.html', '  [recover]: https://example.com/recover "Recovering"', '[angle]: <a b.html>', 'After.'].join('\n');
    expect(searchableText(input)).toBe(['The end of the chapter.', '', '', '', '', 'After.'].join('\n'));
  });

  it('keeps what people read: footnotes, shortcut brackets, autolinks, bare URLs, prose with a colon', () => {
    const input = [
      '[^1]: The footnote text people read.',
      'A checkbox [x] and a shortcut [link].',
      'More information: <https://manned.org/age-inspect>.',
      'Docs at https://example.com/guide, as always.',
      '[Note]: this matters a great deal.',
      'An array a[0] and a call f(x).',
    ].join('\n');
    expect(searchableText(input)).toBe(input);
  });

  it('leaves fenced code exactly as it is, and goes on after the fence closes', () => {
    const input = ['```js', 'handlers[i](req)', '[a]: b', '```', 'See [the docs](https://x.io/a).', '~~~~', '[k](v)', '~~~', 'still code [k](v)', '~~~~', '[after](https://x.io/b)'].join('\n');
    expect(searchableText(input)).toBe(['```js', 'handlers[i](req)', '[a]: b', '```', 'See [the docs].', '~~~~', '[k](v)', '~~~', 'still code [k](v)', '~~~~', '[after]'].join('\n'));
  });

  it('leaves fenced code in a blockquote or a list item as it is', () => {
    const input = ['> ```js', '> handlers[i](req)', '> ```', '> [quoted](https://x.io/q)', '1. ```bash', '   run [a](b)', '   ```', '   - ```', '     m[0](1)', '     ```', '[after](https://x.io/b)'].join('\n');
    expect(searchableText(input)).toBe(['> ```js', '> handlers[i](req)', '> ```', '> [quoted]', '1. ```bash', '   run [a](b)', '   ```', '   - ```', '     m[0](1)', '     ```', '[after]'].join('\n'));
    // A backtick run with a backtick after it on the line is a code span, not a fence.
    expect(searchableText(['```a``` then [x](https://x.io/s)', '[y](https://x.io/t)'].join('\n'))).toBe(['```a``` then [x]', '[y]'].join('\n'));
  });

  it('reads escaped brackets as written: they open no link', () => {
    expect(searchableText('Type \\[x\\](y) or \\[a\\][b] literally, then [z](https://x.io/z).')).toBe('Type \\[x\\](y) or \\[a\\][b] literally, then [z].');
  });

  it('leaves code spans as they are: brackets in code are indexing, calls and patterns, not links', () => {
    const input = [
      'The signature is `.listen([options][, callback])` and `handlers[i](req)` calls one.',
      "`sops -d --extract '[\"an_array\"][1]' file` and ``a `[x](y)` b`` in prose, then [a link](https://x.io/c).",
    ].join('\n');
    expect(searchableText(input)).toBe(
      [
        'The signature is `.listen([options][, callback])` and `handlers[i](req)` calls one.',
        "`sops -d --extract '[\"an_array\"][1]' file` and ``a `[x](y)` b`` in prose, then [a link].",
      ].join('\n'),
    );
    // A run of backticks that nothing closes is text, and a longer run inside a span does not end it.
    expect(searchableText('A lone ``` then [x](https://x.io/d), ``m[0][1] ` ``.')).toBe('A lone ``` then [x], ``m[0][1] ` ``.');
  });

  it('drops a reference definition whose address, or title, is on the next line', () => {
    const input = ['Text.', '[Fastify]:', '    #fastifyrawserver-rawrequest-rawreply', '[Plugin]: #fastifyplugin', '[Guide]: https://x.io/guide', '  "The guide"', 'After.'].join('\n');
    expect(searchableText(input)).toBe(['Text.', '', '', '', '', '', 'After.'].join('\n'));
  });

  it('keeps a line ending in a colon that starts a sentence or a list, not a definition', () => {
    const input = ['[Note]:', 'this matters a great deal.', '[Steps]:', '', '- one'].join('\n');
    expect(searchableText(input)).toBe(input);
  });

  it("leaves out an HTML tag's address (href, src) and keeps its text and alt text, outside code", () => {
    const input = [
      '<img src="img/trpl04-01.svg" class="center" alt="Two tables: the stack and the heap" />',
      'See <a href="https://kubernetes.io/docs/probes">the probes guide</a>, and `<a href="x.html">` in code.',
      "string data on the heap.\" src='img/trpl04-02.svg' class=\"center\" />",
      '```html',
      '<a href="https://example.com/kept-in-code">x</a>',
      '```',
    ].join('\n');
    expect(searchableText(input)).toBe(
      [
        '<img class="center" alt="Two tables: the stack and the heap" />',
        'See <a>the probes guide</a>, and `<a href="x.html">` in code.',
        'string data on the heap." class="center" />',
        '```html',
        '<a href="https://example.com/kept-in-code">x</a>',
        '```',
      ].join('\n'),
    );
  });

  it('returns text without brackets unchanged', () => {
    const input = 'Plain text with (parentheses) and a URL https://example.com.';
    expect(searchableText(input)).toBe(input);
  });
});

describe('headingAsRead', () => {
  it.each([
    ['Database > [Mongo](https://github.com/fastify/fastify-mongodb)', 'Database > Mongo'],
    ['Guide > Changed middleware support ([#2014](https://github.com/fastify/fastify/pull/2014))', 'Guide > Changed middleware support (#2014)'],
    ['See [Chapter 9][ch09] > ![logo](a.png) Logo', 'See Chapter 9 > logo Logo'],
    ['Arrays [T; N] > Slices', 'Arrays [T; N] > Slices'],
    // A README's title with a badge: an image inside a link reads as the image's alt text, no address left.
    ['Fastify [![CI](https://x.io/badge.svg)](https://github.com/fastify/fastify/actions)', 'Fastify CI'],
    ['A [guide [beta] edition](https://x.io/g) > Setup', 'A guide [beta] edition > Setup'],
    ['Calling `handlers[i](req)` > [`reply.send()`](#send)', 'Calling `handlers[i](req)` > `reply.send()`'],
  ])('%j reads %j', (input, expected) => {
    expect(headingAsRead(input)).toBe(expected);
  });
});
