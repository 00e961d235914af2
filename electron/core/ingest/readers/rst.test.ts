import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../chunkers/index';
import { parseOutline } from '../chunkers/markdown';
import { readerFor } from './index';
import { parseRst, rstReader } from './rst';

const utf8 = (s: string) => new TextEncoder().encode(s);
const lineCount = (s: string) => s.split('\n').length;

describe('rst reader', () => {
  it('is the reader for .rst files', () => {
    expect(readerFor('docs/Usage.RST')?.name).toBe('rst');
  });

  it('turns adorned titles into headings, levels in the order their styles appear, keeping line numbers', () => {
    const source = [
      '==========',
      'User Guide',
      '==========',
      '',
      'Installing',
      '----------',
      '',
      'Use pip.',
      '',
      'From source',
      '~~~~~~~~~~~',
      '',
      'Clone it.',
      '',
      'Upgrading',
      '---------',
      '',
      'Run pip again.',
    ].join('\n');
    const read = parseRst(source);
    expect(read.title).toBe('User Guide');
    expect(lineCount(read.text)).toBe(lineCount(source));
    const lines = read.text.split('\n');
    expect(lines[1]).toBe('# User Guide');
    expect(lines[4]).toBe('## Installing');
    expect(lines[9]).toBe('### From source');
    expect(lines[14]).toBe('## Upgrading');
    expect(read.text).not.toMatch(/^[=~-]{3,}$/m);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['User Guide', 'User Guide > Installing', 'User Guide > Installing > From source', 'User Guide > Upgrading']);
  });

  it('does not take a transition or an underline shorter than its text for a title', () => {
    const source = ['Some text.', '', '----------', '', 'A long line of prose here', '---', 'More.'].join('\n');
    expect(parseRst(source).text).not.toContain('#');
  });

  it('fences literal blocks and code directives, so a comment in code is not a heading', () => {
    const source = [
      'Setup',
      '=====',
      '',
      'Install it like this::',
      '',
      '   # from PyPI',
      '   pip install quire',
      '',
      '.. code-block:: python',
      '   :linenos:',
      '',
      '   # the client',
      '   client = Client()',
      '',
      'Done.',
    ].join('\n');
    const read = parseRst(source);
    expect(lineCount(read.text)).toBe(lineCount(source));
    const lines = read.text.split('\n');
    expect(lines[3]).toBe('Install it like this:');
    expect(lines.slice(4, 8)).toEqual(['```', '   # from PyPI', '   pip install quire', '```']);
    expect(lines.slice(8, 14)).toEqual(['', '', '```python', '   # the client', '   client = Client()', '```']);
    const chunks = chunkDocument({ title: read.title!, text: read.text, firstLine: read.firstLine });
    expect(chunks.every((c) => c.headingPath === 'Setup')).toBe(true);
  });

  it('leaves out link targets and comments, and writes links and roles as a reader sees them', () => {
    const source = [
      'See `the tutorial <https://example.com/tutorial-kubernetes>`_ and :ref:`Installing <install>`,',
      'then call :func:`quire.open` with ``mode="r"``.',
      '',
      '.. _install:',
      '.. _PyPI: https://pypi.org/project/kubernetes-helm/',
      '.. this is a comment about helm',
      '   that goes on here',
      '',
      '.. note:: Notes stay.',
    ].join('\n');
    const read = parseRst(source);
    const lines = read.text.split('\n');
    expect(lines[0]).toBe('See [the tutorial](https://example.com/tutorial-kubernetes) and Installing,');
    expect(lines[1]).toBe('then call `quire.open` with `mode="r"`.');
    expect(lines.slice(3, 7)).toEqual(['', '', '', '']);
    expect(read.text).toContain('Note: Notes stay.');
    expect(rstReader.read(utf8(source)).text).toBe(read.text);
  });

  it("reads a # line in a directive's body, and a leftover ~~~~ line, as text: no heading, no fence", () => {
    const source = ['Setup', '=====', '', '.. note::', '', '   # of workers defaults to the CPU count.', '', 'Some paragraph', 'that goes on', '~~~~~~~~~~~~~~', '', 'Upgrade', '=======', '', 'Run pip again.'].join('\n');
    const read = parseRst(source);
    expect(read.text.split('\n')[5]).toBe('\\# of workers defaults to the CPU count.');
    const outline = parseOutline(read.text, read.title!);
    expect(outline.headings.map((h) => h.path.join(' > '))).toEqual(['Setup', 'Setup > Upgrade']);
    expect(outline.blocks.some((b) => b.kind === 'fence')).toBe(false);
  });

  it('fences a literal block holding Markdown with a longer fence, so the sections after it stay sections', () => {
    const source = ['Docs', '====', '', 'Write a README like this::', '', '   ```bash', '   make', '   ```', '', 'Publishing', '==========', '', 'Push the tag.'].join('\n');
    const read = parseRst(source);
    expect(read.text.split('\n').slice(3, 9)).toEqual(['Write a README like this:', '````', '   ```bash', '   make', '   ```', '````']);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Docs', 'Docs > Publishing']);
  });

  it('takes an underline of four or more that is shorter than its title for a title, as docutils does', () => {
    const source = ['Guide', '=====', '', 'Configuring the server', '------', '', 'Edit the file.'].join('\n');
    expect(parseRst(source).text.split('\n').slice(3, 5)).toEqual(['## Configuring the server', '']);
  });

  it('starts a role only where inline markup may start, not inside a word', () => {
    // Also what keeps the pattern linear on a long run of `:a:a:a…` (test/bench/perf-readers.ts).
    expect(parseRst('Use :py:func:`open` (or :ref:`the guide <guide>`), not word:role:`x`, and `a  <https://x.io/a>`_.').text).toBe('Use `open` (or the guide), not word:role:`x`, and [a](https://x.io/a).');
  });

  it('reads a megabyte-long line of one punctuation character without overflowing the stack', () => {
    const rule = '='.repeat(6_000_000);
    expect(parseRst(['Title', rule, '', 'Text.'].join('\n')).text.split('\n')).toEqual(['# Title', '', '', 'Text.']);
  });

  it("shows a code block's caption and blanks its other options", () => {
    const source = ['.. code-block:: yaml', '   :caption: Retry policy in ``config.yaml``', '   :linenos:', '', '   retries: 3', ''].join('\n');
    expect(parseRst(source).text.split('\n')).toEqual(['', 'Retry policy in `config.yaml`', '', '```yaml', '   retries: 3', '```']);
  });

  it('shows directives as a page does: labels, object descriptions as entries, no navigation, no options, bodies dedented', () => {
    const source = [
      'ctest(1)',
      '********',
      '',
      '.. contents::',
      '   :local:',
      '',
      '.. toctree::',
      '   :maxdepth: 1',
      '',
      '   /command/add_test',
      '   /command/enable_testing',
      '',
      '.. program:: ctest',
      '',
      '.. option:: -j <jobs>, --parallel <jobs>',
      '',
      '  Run the tests in parallel.',
      '',
      '  .. versionadded:: 3.12',
      '',
      '  .. note::',
      '',
      '     Also set by the environment.',
      '',
      '     .. envvar:: CTEST_PARALLEL_LEVEL',
      '',
      '.. variable:: CPACK_DEBIAN_PACKAGE_DEPENDS',
      '              CPACK_DEBIAN_<COMPONENT>_PACKAGE_DEPENDS',
      '',
      '  Sets the Depends field.',
      '',
      '.. deprecated:: 3.0 Use the other one.',
      '.. warning:: Slow.',
      '.. cmake-module:: ../../Modules/FindPython.cmake',
    ].join('\n');
    const read = parseRst(source);
    const lines = read.text.split('\n');
    expect(lineCount(read.text)).toBe(lineCount(source));
    expect(read.text).not.toMatch(/\.\. |::|:maxdepth:|:local:|\/command\/|ctest$/m);
    // An object description is an entry below its section (as in Sphinx's contents); one nested in another directive is a code line.
    expect(lines[14]).toBe('## -j <jobs>, --parallel <jobs>');
    expect(lines[16]).toBe('Run the tests in parallel.');
    expect(lines[18]).toBe('New in version 3.12.');
    expect(lines[20]).toBe('Note:');
    expect(lines[22]).toBe('Also set by the environment.');
    expect(lines[24]).toBe('`CTEST_PARALLEL_LEVEL`');
    expect(lines.slice(26, 28)).toEqual(['## CPACK_DEBIAN_PACKAGE_DEPENDS', '`CPACK_DEBIAN_<COMPONENT>_PACKAGE_DEPENDS`']);
    expect(lines[29]).toBe('Sets the Depends field.');
    expect(lines.slice(31)).toEqual(['Deprecated since version 3.0: Use the other one.', 'Warning: Slow.', '']);
    // Nothing is left indented four spaces, which a Markdown renderer would show as code.
    expect(read.text).not.toMatch(/^ {4}/m);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['ctest(1)', 'ctest(1) > -j <jobs>, --parallel <jobs>', 'ctest(1) > CPACK_DEBIAN_PACKAGE_DEPENDS']);
  });

  it('fences a parsed-literal block with its inline markup shown as text', () => {
    const source = ['.. parsed-literal::', '', ' `Run Tests`_', '  ctest [<options>] :option:`-j`', '', 'After.'].join('\n');
    expect(parseRst(source).text.split('\n')).toEqual(['', '```', ' Run Tests', '  ctest [<options>] -j', '```', 'After.']);
  });

  it("writes a reference as its text, and keeps a role's <LANG> unless a space sets off a target", () => {
    expect(parseRst('In a `CTest Script`_, see `the notes`__ and :variable:`CMAKE_<LANG>_FLAGS`, :ref:`Guide <guide>`.').text).toBe(
      'In a CTest Script, see the notes and CMAKE_<LANG>_FLAGS, Guide.',
    );
    expect(parseRst(':command:`target_link_libraries(<target> ...)`, :cpp:class:`std::vector<int>`').text).toBe('`target_link_libraries(<target> ...)`, `std::vector<int>`');
  });

  it('takes a two-character underline for the title of a one- or two-character name', () => {
    const source = ['if', '--', '', 'Conditionally execute commands.', '', 'Synopsis', '^^^^^^^^', '', 'Text.'].join('\n');
    const read = parseRst(source);
    expect(read.title).toBe('if');
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['if', 'if > Synopsis']);
    // A short rule under prose is no title.
    expect(parseRst(['', 'a', '--', 'b'].join('\n')).text).not.toContain('#');
  });

  it("writes a substitution the document defines as its text, wherever it is defined, and leaves out the definition", () => {
    const source = ['Set |XXX|_ to ``ON`` in |project|.', '', 'Example::', '', '   |XXX| in code', '', '.. |XXX| replace:: :variable:`CMAKE_LIBRARY_OUTPUT_DIRECTORY`', '.. |logo| image:: logo.png', '   :alt: Logo'].join('\n');
    const read = parseRst(source);
    expect(lineCount(read.text)).toBe(lineCount(source));
    const lines = read.text.split('\n');
    expect(lines[0]).toBe('Set CMAKE_LIBRARY_OUTPUT_DIRECTORY to `ON` in |project|.');
    expect(lines.slice(3, 6)).toEqual(['```', '   |XXX| in code', '```']);
    expect(lines.slice(6)).toEqual(['', '', '']);
  });

  it('reads a role or reference wrapped onto the next lines, keeping every line', () => {
    const source = [
      'The property is a :ref:`semicolon-separated list <CMake',
      'Language Lists>` of values, see `the',
      'tutorial <https://example.com/t>`_ and ``a',
      'literal``.',
      '',
      'An unclosed `tick stays as written.',
    ].join('\n');
    const read = parseRst(source);
    expect(read.text.split('\n')).toEqual([
      'The property is a semicolon-separated list',
      ' of values, see [the',
      'tutorial](https://example.com/t) and `a',
      'literal`.',
      '',
      'An unclosed `tick stays as written.',
    ]);
  });
});
