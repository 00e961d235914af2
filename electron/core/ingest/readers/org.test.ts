import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { readerFor } from './index';
import { orgReader, parseOrg } from './org';

const utf8 = (s: string) => new TextEncoder().encode(s);
const lineCount = (s: string) => s.split('\n').length;

describe('org reader', () => {
  it('is the reader for .org files', () => {
    expect(readerFor('notes/Journal.ORG')?.name).toBe('org');
  });

  it('reads stars as headings and the #+TITLE as the title, keeping every line number', () => {
    const source = [
      '#+TITLE: Home server',
      '#+STARTUP: overview',
      '* TODO Backups :ops:',
      ':PROPERTIES:',
      ':CREATED: [2026-01-04]',
      ':END:',
      'Restic runs nightly at 02:00.',
      '** Restore drill',
      '# private: the old passphrase was hunter2',
      'Restore one folder each quarter.',
      '* Network',
      'The router is at 192.168.1.1.',
    ].join('\n');
    const read = orgReader.read(utf8(source));
    expect(read.title).toBe('Home server');
    expect(lineCount(read.text)).toBe(lineCount(source));
    expect(read.text).not.toMatch(/STARTUP|PROPERTIES|CREATED|:END:|hunter2/);
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual([
      'Home server > TODO Backups :ops:',
      'Home server > TODO Backups :ops: > Restore drill',
      'Home server > Network',
    ]);
    expect(read.text.split('\n')[6]).toBe('Restic runs nightly at 02:00.');
  });

  it('fences source and example blocks, so a star inside them is no heading; comment blocks go', () => {
    const source = ['* Scripts', '#+BEGIN_SRC python', '* not a heading', 'print("hi")', '#+END_SRC', '#+begin_comment', 'draft thoughts', '#+end_comment', '#+BEGIN_QUOTE', 'Quoted words stay.', '#+END_QUOTE'].join('\n');
    const lines = parseOrg(source).text.split('\n');
    expect(lines).toEqual(['# Scripts', '```python', '* not a heading', 'print("hi")', '```', '', '', '', '', 'Quoted words stay.', '']);
  });

  it('writes links as Markdown links, and reads a drawer with no :END: before the next heading as text, as Org does', () => {
    const source = ['* Links', 'See [[https://restic.net/docs][the restic docs]] and [[file:notes.org]].', ':LOGBOOK:', 'CLOCK: [2026-01-04]', '* Next', 'Still read.'].join('\n');
    const lines = parseOrg(source).text.split('\n');
    expect(lines[1]).toBe('See [the restic docs](https://restic.net/docs) and file:notes.org.');
    expect(lines.slice(2)).toEqual([':LOGBOOK:', 'CLOCK: [2026-01-04]', '# Next', 'Still read.']);
    // With no #+TITLE, the first heading names the note.
    expect(parseOrg(source).title).toBe('Links');
  });

  it('fences a source block holding Markdown with a longer fence, ends it only at its own #+END_, and unescapes its commas', () => {
    const source = ['* Templates', '#+BEGIN_SRC markdown -n :exports code', '```js', 'x', '```', '#+END_QUOTE', ',* not a heading', ',#+TITLE: kept', '#+END_SRC', '* Next', 'Text.'].join('\n');
    const read = parseOrg(source);
    expect(read.text.split('\n').slice(1, 9)).toEqual(['````markdown', '```js', 'x', '```', '#+END_QUOTE', '* not a heading', '#+TITLE: kept', '````']);
    expect(parseOutline(read.text, 'Notes').headings.map((h) => h.path.join(' > '))).toEqual(['Notes > Templates', 'Notes > Next']);
  });

  it('takes no switch for a language, and keeps pasted Markdown in prose from opening a fence', () => {
    const source = ['* Shell', '#+begin_src -n', 'ls', '#+end_src', 'Paste this:', '```bash', 'make', '* Later', 'Still a section.'].join('\n');
    const read = parseOrg(source);
    expect(read.text.split('\n').slice(1, 7)).toEqual(['```', 'ls', '```', 'Paste this:', '\\```bash', 'make']);
    expect(parseOutline(read.text, 'Notes').headings.map((h) => h.path.join(' > '))).toEqual(['Notes > Shell', 'Notes > Later']);
  });

  it("shows what an export shows of its keywords: a caption, the subtitle, the author; not the rest", () => {
    const source = ['#+TITLE: Budget', '#+SUBTITLE: Second quarter', '#+AUTHOR: Ana Lima', '#+STARTUP: overview', '#+CAPTION: Revenue by [[https://x.io/r][region]]', '#+NAME: tbl', '| EU | 40 |'].join('\n');
    expect(parseOrg(source).text.split('\n')).toEqual(['', 'Second quarter', 'Ana Lima', '', 'Revenue by [region](https://x.io/r)', '', '| EU | 40 |']);
  });

  it('reads an unclosed block or a lone :word: line as text instead of hiding the rest of the note', () => {
    const source = ['Notes from the call', ':smile:', 'We agreed on Friday.', '#+BEGIN_COMMENT', 'Draft, never closed.', '#+begin_src sh', 'make', 'The end.'].join('\n');
    expect(parseOrg(source).text.split('\n')).toEqual(['Notes from the call', ':smile:', 'We agreed on Friday.', '', 'Draft, never closed.', '', 'make', 'The end.']);
  });
});
