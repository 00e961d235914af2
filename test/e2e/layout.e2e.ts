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
});
