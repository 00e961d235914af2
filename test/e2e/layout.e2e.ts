import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { importAndWait, useBrowserApp } from './browser-app';

/**
 * The window's layout at the sizes people use (800×600, 1280×800): the page itself never scrolls,
 * and what the app shows is not cut off where it need not be. Screenshots in test-results/.
 */
const web = useBrowserApp({
  prefix: 'quire-e2e-layout',
  notes: (notes) => {
    notes.write('ops/key-rotation.md', '# Key rotation\n\nWe rotate the deploy keys every 90 days.\nThe platform team owns the rotation.\n');
    for (let i = 0; i < 6; i++) notes.write(`garden/bed-${i}.md`, `# Bed ${i}\n\n${'Compost, soil and seasons fill this gardening note. '.repeat(20)}Bed ${i} grows tomatoes.\n`);
  },
  prepare: (engine, notes) => importAndWait(engine, notes.root),
  viewport: { width: 800, height: 600 },
});
let page: Page;
beforeAll(() => ({ page } = web));

/** How far the page (not a pane inside it) can scroll, and where it is scrolled to. */
async function pageScroll(): Promise<{ scrollHeight: number; innerHeight: number; scrollY: number }> {
  return (await page.evaluate(
    '({ scrollHeight: document.scrollingElement.scrollHeight, innerHeight: window.innerHeight, scrollY: window.scrollY })',
  )) as { scrollHeight: number; innerHeight: number; scrollY: number };
}

/** Each status bar part's text, and whether it is cut short (ends in an ellipsis). */
async function statusParts(): Promise<Array<{ text: string; cut: boolean; title: string }>> {
  // Measured unrounded: an ellipsis shows for a fraction of a pixel that scrollWidth rounds away.
  return (await page.evaluate(`[...document.querySelectorAll('[data-testid="status-bar"] .status-bar__item')].map((i) => {
    const r = document.createRange();
    r.selectNodeContents(i);
    return { text: i.innerText.trim(), cut: r.getBoundingClientRect().width > i.getBoundingClientRect().width + 0.01, title: i.title };
  })`)) as Array<{ text: string; cut: boolean; title: string }>;
}

describe('the window', () => {
  it('Settings never scrolls the whole app away: the page is the window\'s height, a wheel past the end moves only the pane', async () => {
    for (const [width, height] of [
      [800, 600],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(web.app.url);
      await page.getByTestId('nav-settings').click();
      // The vector stores' table (its visually hidden Actions header once made the page 1,841 px tall).
      await page.getByRole('columnheader', { name: 'Embedding model' }).waitFor();
      const before = await pageScroll();
      expect(before.scrollHeight, `${width}×${height}: ${JSON.stringify(before)}`).toBeLessThanOrEqual(before.innerHeight);
      await page.mouse.move(width / 2, height / 2);
      for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 800);
      await page.waitForTimeout(150);
      const after = await pageScroll();
      expect(after.scrollY, `${width}×${height}: the page scrolled`).toBe(0);
      // The app is still in the window: its navigation at the top, the status bar at the bottom.
      const nav = (await page.getByTestId('nav-settings').boundingBox())!;
      expect(nav.y).toBeGreaterThanOrEqual(0);
      const bar = (await page.getByTestId('status-bar').boundingBox())!;
      expect(bar.y + bar.height).toBeLessThanOrEqual(height + 0.5);
      await web.shot(`layout-settings-scrolled-${width}x${height}`);
    }
  });

  it('the status bar shows the models whole at 800×600, and with Ollama down everything whole at 1280×800', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(web.app.url);
    await page.getByTestId('status-bar').getByText(/Ollama connected/).waitFor();
    const up = await statusParts();
    expect(up.map((p) => p.text)).toEqual([expect.stringMatching(/^Ollama connected/), '7 documents · 7 chunks', 'Chat llama3.2', 'Embedding embeddinggemma']);
    expect(up.filter((p) => p.cut), JSON.stringify(up)).toEqual([]);
    await web.shot('layout-status-bar-800x600');

    await web.ollama.stop();
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      const down = page.getByTestId('status-bar').locator('[data-ollama="down"]');
      await down.waitFor({ timeout: 15_000 });
      const parts = await statusParts();
      expect(parts[0]!.text).toMatch(/^Keyword search only · Ollama not running at 127\.0\.0\.1:\d+$/);
      expect(parts.filter((p) => p.cut), JSON.stringify(parts)).toEqual([]);
      await web.shot('layout-status-bar-down-1280x800');
      // Narrow, Ollama's state and what is indexed stay whole; a model cut short keeps its name as the tooltip.
      await page.setViewportSize({ width: 800, height: 600 });
      const narrow = await statusParts();
      expect(narrow.slice(0, 2).filter((p) => p.cut), JSON.stringify(narrow)).toEqual([]);
      for (const p of narrow.filter((p) => p.cut)) expect(p.title).toMatch(/^(Chat|Embedding) model /);
      await web.shot('layout-status-bar-down-800x600');
    } finally {
      await web.ollama.start();
    }
  });

  it('passage search in Ask at 800×600: the results are brought into view with room to read, not two lines above the question box', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(web.app.url);
    await page.getByTestId('nav-ask').click();
    await page.getByTestId('search-box').fill('tomatoes compost');
    await page.getByTestId('search-box').press('Enter');
    await page.getByTestId('search-result').first().waitFor();
    await page.waitForTimeout(600); // the pane's smooth scroll
    const seen = (await page.evaluate(`(() => {
      const pane = document.querySelector('[data-testid="ask-scroll"]').getBoundingClientRect();
      const items = [...document.querySelectorAll('.search-results__list > li')].map((li) => li.getBoundingClientRect());
      const visible = items.filter((r) => r.top >= pane.top - 1 && r.bottom <= pane.bottom + 1).length;
      return { paneHeight: pane.height, visible, total: items.length };
    })()`)) as { paneHeight: number; visible: number; total: number };
    expect(seen.total).toBeGreaterThanOrEqual(3);
    // The pane the results share with the conversation keeps most of the window, and shows whole results.
    expect(seen.paneHeight, JSON.stringify(seen)).toBeGreaterThanOrEqual(300);
    expect(seen.visible, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
    await web.shot('layout-ask-search-800x600');
  });
});
