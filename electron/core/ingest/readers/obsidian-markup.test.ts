import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { parseMarkdown } from './markdown';
import { obsidianLineText } from './obsidian-markup';

describe('notes apps markup read as the words they show', () => {
  it('reads a wikilink as its text, an aliased one as its alias, a heading link as "Note > Heading"', () => {
    expect(obsidianLineText('Read the [[Travel policy]] first.')).toBe('Read the Travel policy first.');
    expect(obsidianLineText('see [[2026-10-14 Budget meeting|budget oct]].')).toBe('see budget oct.');
    expect(obsidianLineText('[[Reading Log#2026]] and [[#Decisions]] and [[Atlas#^a1b2c3]]')).toBe('Reading Log > 2026 and Decisions and Atlas');
    expect(obsidianLineText('| [[Atlas\\|the portal]] | x |')).toBe('| the portal | x |');
  });

  it('reads an embedded note as its name and an embedded picture as its description or nothing', () => {
    expect(obsidianLineText('![[Atlas architecture]]')).toBe('Atlas architecture');
    expect(obsidianLineText('![[whiteboard-oct.png|300]]')).toBe('');
    expect(obsidianLineText('![[plan.PNG|Garden beds]] and ![[receipts.pdf]]')).toBe('Garden beds and ');
  });

  it("drops a block's id at the end of its line, and nothing else that looks like one", () => {
    expect(obsidianLineText('- Cut travel by 30%. ^decision-1')).toBe('- Cut travel by 30%.');
    expect(obsidianLineText('2^10 is 1024 and x^2 ^ y')).toBe('2^10 is 1024 and x^2 ^ y');
    expect(parseMarkdown('# Budget\n\nCut travel by 30%. ^decision-1\n').text).toBe('# Budget\n\nCut travel by 30%.\n');
  });

  it('leaves code spans, Markdown links and lone brackets as written', () => {
    expect(obsidianLineText('use `[[name]]` to link')).toBe('use `[[name]]` to link');
    expect(obsidianLineText('a [link](https://x.org) and [[]] and [[ x')).toBe('a [link](https://x.org) and [[]] and [[ x');
  });

  it('reads a callout marker as its type in words, keeping its title and blockquote', () => {
    expect(obsidianLineText('> [!warning] Freeze')).toBe('> Warning: Freeze');
    expect(obsidianLineText('> [!danger]- Never do this')).toBe('> Danger: Never do this');
    expect(obsidianLineText('> [!QUOTE]')).toBe('> Quote:');
    expect(obsidianLineText('> > [!tip]+ Nested [[Garden plan]]')).toBe('> > Tip: Nested Garden plan');
    expect(obsidianLineText('Not a callout: [!note] in a sentence')).toBe('Not a callout: [!note] in a sentence');
  });

  it("leaves out Obsidian's %% block comments, where plugins keep their data (an Excalidraw drawing), line for line", () => {
    const source = [
      '---',
      'excalidraw-plugin: parsed',
      'tags: [excalidraw]',
      '---',
      '# Text Elements',
      'Kitchen layout: fridge left of the window ^aB3dE9fG',
      '',
      '%%',
      '# Drawing',
      '```compressed-json',
      'N4KAkARALgngDgUwgLgAQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEcK4OCtptbErHALRY8RMpWdx8Ox',
      '```',
      '%%',
      'After the drawing.',
      '',
      '```md',
      '%%',
      'a fence showing how to write a comment',
      '%%',
      '```',
      'Tail text 100%% sure.',
    ].join('\n');
    const r = parseMarkdown(source);
    const lines = r.text.split('\n');
    expect(r.firstLine + lines.length - 1).toBe(source.split('\n').length);
    expect(r.text).not.toMatch(/N4KAkAR|compressed-json|# Drawing/);
    expect(lines[lines.indexOf('After the drawing.') - 1]).toBe('');
    expect(r.firstLine + lines.indexOf('After the drawing.')).toBe(14);
    expect(r.text).toContain('Kitchen layout: fridge left of the window\n');
    expect(r.text).toContain('%%\na fence showing how to write a comment\n%%');
    expect(r.text).toContain('Tail text 100%% sure.');
    expect(r.text.split('\n')[0]).toBe('Tags: excalidraw');
    // One never closed hides nothing.
    expect(parseMarkdown('Intro\n\n%%\nStill shown\n').text).toBe('Intro\n\n%%\nStill shown\n');
  });

  it('rewrites a Markdown note line for line, outside fenced code, with clean heading names', () => {
    const source = [
      '# Notes on [[Project Atlas|Atlas]]',
      '',
      '> [!note] NAS backup',
      '> Backs up on Sundays, see [[Home network]].',
      '',
      '```md',
      'Link with [[Note]] and > [!note] stays code',
      '```',
      '',
      '    [[indented code]] too',
    ].join('\n');
    const r = parseMarkdown(source);
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(source.split('\n').length);
    expect(r.title).toBe('Notes on Atlas');
    expect(lines[0]).toBe('# Notes on Atlas');
    expect(lines.slice(2, 4)).toEqual(['> Note: NAS backup', '> Backs up on Sundays, see Home network.']);
    expect(lines[6]).toBe('Link with [[Note]] and > [!note] stays code');
    expect(lines[9]).toBe('    [[indented code]] too');
    expect(parseOutline(r.text, r.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Notes on Atlas']);
  });
});
