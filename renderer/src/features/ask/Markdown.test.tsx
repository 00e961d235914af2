import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { parseMarkdown } from './markdown';
import { Markdown } from './Markdown';

function show(text: string) {
  return render(<Markdown text={text} />).container;
}

describe('safe Markdown renderer', () => {
  it('shows HTML as text: no element is created from the answer', () => {
    const c = show('Look: <img src=x onerror="alert(1)"> and <script>alert(2)</script> and <b>bold?</b>');
    expect(c.querySelector('img')).toBeNull();
    expect(c.querySelector('script')).toBeNull();
    expect(c.querySelector('b')).toBeNull();
    expect(c.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(c.textContent).toContain('<script>alert(2)</script>');
    // The markup sits in the DOM escaped, as text.
    expect(c.innerHTML).toContain('&lt;img src=x onerror="alert(1)"&gt;');
  });

  it('keeps HTML inside code blocks and inline code as text too', () => {
    const c = show('`<iframe src="x">`\n\n```html\n<script>steal()</script>\n```');
    expect(c.querySelector('iframe')).toBeNull();
    expect(c.querySelector('script')).toBeNull();
    expect(c.querySelector('pre code')!.textContent).toBe('<script>steal()</script>');
    expect(c.querySelector('code.md-inline-code')!.textContent).toBe('<iframe src="x">');
  });

  it('shows links as plain text with their address, never as anchors', () => {
    const c = show('See [the docs](https://evil.example/x?y=1) or <https://auto.example> or javascript:alert(1).');
    expect(c.querySelector('a')).toBeNull();
    expect(c.querySelector('[href]')).toBeNull();
    expect(c.textContent).toContain('the docs (https://evil.example/x?y=1)');
    expect(c.textContent).toContain('https://auto.example');
  });

  it('never loads images: they become "[image: alt]"', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.reject(new Error('no network in tests')));
    const c = show('A chart: ![sales chart](https://tracker.example/pixel.png) and ![](http://x/y.gif)');
    expect(c.querySelector('img')).toBeNull();
    expect(c.querySelector('[src]')).toBeNull();
    expect(c.textContent).toContain('[image: sales chart]');
    expect(c.textContent).toContain('[image: no description]');
    expect(c.textContent).not.toContain('pixel.png');
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('renders paragraphs, lists, emphasis, inline code and code blocks', () => {
    const c = show('First **bold** and *em* and `code`.\n\nSecond para.\n\n- one\n- two\n\n1. a\n2. b\n\n```\nx = 1\n```');
    expect(c.querySelectorAll('p')).toHaveLength(2);
    expect(c.querySelector('strong')!.textContent).toBe('bold');
    expect(c.querySelector('em')!.textContent).toBe('em');
    expect(c.querySelector('code.md-inline-code')!.textContent).toBe('code');
    expect([...c.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect([...c.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(c.querySelector('pre')!.textContent).toBe('x = 1');
  });

  it('does not treat snake_case or lone asterisks as emphasis', () => {
    const c = show('call my_var_name with 2 * 3 * 4');
    expect(c.querySelector('em')).toBeNull();
    expect(c.textContent).toBe('call my_var_name with 2 * 3 * 4');
  });

  it('finds citation markers outside code only, numbering sources by first appearance', () => {
    const md = parseMarkdown('A [abc#0]. B [def#2, abc#0]. `[zzz#1]` and [x](y) and [ ] and [issue #4].');
    expect(md.cites.map((c) => [c.chunkId, c.n, c.occurrence])).toEqual([
      ['abc#0', 1, 0],
      ['def#2', 2, 0],
      ['abc#0', 1, 1],
    ]);
  });

  it('tolerates a half-streamed answer', () => {
    const c = show('Keys rotate **every 90 [abc#');
    expect(c.textContent).toBe('Keys rotate **every 90 [abc#');
    const d = show('```js\nconst a = 1;');
    expect(d.querySelector('pre')!.textContent).toBe('const a = 1;');
  });
});
