import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Markdown } from './Markdown';
import { citeNumberer, splitCites, type CiteNode } from './remark-cites';

function show(text: string, renderCite?: (c: CiteNode) => React.ReactNode) {
  return render(<Markdown text={text} {...(renderCite ? { renderCite } : {})} />).container;
}

describe('Markdown as people write it (react-markdown + GFM)', () => {
  it('renders a table with its header and cells', () => {
    const c = show('| Key | Days |\n|-----|-----:|\n| deploy | 90 |\n| backup | 30 |\n');
    expect([...c.querySelectorAll('table th')].map((th) => th.textContent)).toEqual(['Key', 'Days']);
    expect([...c.querySelectorAll('table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['deploy', '90'],
      ['backup', '30'],
    ]);
  });

  it('renders a task list as disabled checkboxes, checked where done', () => {
    const c = show('- [x] rotate keys\n- [ ] tell the team\n');
    const boxes = [...c.querySelectorAll<HTMLInputElement>('li input[type="checkbox"]')];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
    expect(c.querySelector('li')!.textContent).toContain('rotate keys');
  });

  it('renders nested lists as lists inside list items', () => {
    const c = show('- fruit\n  - apple\n  - pear\n- veg\n  1. leek\n  2. kale\n');
    expect(c.querySelectorAll(':scope .markdown > ul > li')).toHaveLength(2);
    expect([...c.querySelectorAll('ul > li > ul > li')].map((li) => li.textContent)).toEqual(['apple', 'pear']);
    expect([...c.querySelectorAll('ul > li > ol > li')].map((li) => li.textContent)).toEqual(['leek', 'kale']);
  });

  it('renders fenced code blocks with their language, and their content as text', () => {
    const c = show('Run:\n\n```rust\nfn main() {\n    println!("<b>hi</b>");\n}\n```\n\nand `x < y`.');
    const code = c.querySelector('pre > code')!;
    expect(code.className).toContain('language-rust');
    expect(code.textContent).toBe('fn main() {\n    println!("<b>hi</b>");\n}\n');
    expect(c.querySelector('b')).toBeNull();
    expect(c.querySelector('p code')!.textContent).toBe('x < y');
  });

  it('shows raw HTML as text: no element is created from the answer', () => {
    const c = show('Look: <img src=x onerror="alert(1)"> and <script>alert(2)</script> and <b>bold?</b>\n\n<div onclick="x()">block</div>');
    for (const tag of ['img', 'script', 'b', '.markdown div']) expect(c.querySelector(tag), tag).toBeNull();
    expect(c.querySelector('[onerror], [onclick]')).toBeNull();
    expect(c.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(c.textContent).toContain('<script>');
    expect(c.textContent).toContain('<div onclick="x()">block</div>');
  });

  it('never loads a remote image: its alt text is shown instead', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.reject(new Error('no network in tests')));
    const c = show('A chart: ![sales chart](https://tracker.example/pixel.png) and ![](http://x/y.gif)');
    expect(c.querySelector('img')).toBeNull();
    expect(c.querySelector('[src]')).toBeNull();
    expect(c.textContent).toContain('[image: sales chart]');
    expect(c.textContent).toContain('[image: no description]');
    expect(c.innerHTML).not.toContain('pixel.png');
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('opens web links outside the app, and never makes a javascript: link', () => {
    const c = show('See [the docs](https://docs.example/x?y=1), <https://auto.example> and [bad](javascript:alert(1)).');
    const links = [...c.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.target, a.rel])).toEqual([
      ['https://docs.example/x?y=1', '_blank', 'noopener noreferrer'],
      ['https://auto.example', '_blank', 'noopener noreferrer'],
    ]);
    expect(c.textContent).toContain('bad');
  });

  it('turns citation markers into clickable chips, outside code only, numbered by first appearance', () => {
    const onClick = vi.fn();
    const c = show('A [abc#0]. B [def#2, abc#0]. `[zzz#1]` and [x](https://y.example) and [ ] and [issue #4].\n\n| a | b |\n|---|---|\n| cell [def#2] | 1 |', (cite) => (
      <button key={cite.index} type="button" data-testid="chip" data-id={cite.chunkId} onClick={() => onClick(cite)}>
        {cite.n}
      </button>
    ));
    const chips = [...c.querySelectorAll<HTMLButtonElement>('[data-testid="chip"]')];
    expect(chips.map((b) => [b.dataset.id, b.textContent])).toEqual([
      ['abc#0', '1'],
      ['def#2', '2'],
      ['abc#0', '1'],
      ['def#2', '2'],
    ]);
    expect(c.querySelector('td [data-testid="chip"]')).not.toBeNull();
    expect(c.querySelector('code')!.textContent).toBe('[zzz#1]');
    expect(c.textContent).toContain('[issue #4]');
    fireEvent.click(chips[2]!);
    expect(onClick).toHaveBeenCalledWith({ chunkId: 'abc#0', n: 1, occurrence: 1, index: 2 });
  });

  it('splits text into markers the way the chips count them', () => {
    const parts = splitCites('x [a#1][b#2] y [chunk: a#1] z', citeNumberer());
    expect(parts.map((p) => (typeof p === 'string' ? p : [p.chunkId, p.n, p.occurrence]))).toEqual(['x ', ['a#1', 1, 0], ['b#2', 2, 0], ' y ', ['a#1', 1, 1], ' z']);
  });

  it('tolerates a half-streamed answer', () => {
    const c = show('Keys rotate **every 90 [abc#');
    expect(c.textContent).toBe('Keys rotate **every 90 [abc#');
    const d = show('```js\nconst a = 1;');
    expect(d.querySelector('pre')!.textContent).toBe('const a = 1;\n');
  });
});
