import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/core/engine';
import { importAndWait, useBrowserApp } from './browser-app';

/**
 * The Ask view's smaller parts in real Chromium, at the two window sizes people use and in both
 * themes: the scope picker's folder tree, the conversation rows' actions, the status bar's Ollama
 * part. Screenshots go to test-results/ as ask-*.png.
 */
const SIZES = [
  [1280, 800],
  [800, 600],
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** More folders inside one folder than any box could show at once. */
const DAYS = 240;
/** A folder whose path is longer than the picker's summary line is wide. */
const LONG = 'work/projects/archive-2019-and-everything-before-it/minutes-of-the-weekly-meetings-held-at-the-old-office';

/** Stores an answer as a conversation, asked of every folder or of the folders inside the imported one named. */
async function askStored(engine: Engine, question: string, paths: string[] = []): Promise<void> {
  const id = (await engine.call('library', {})).collections[0]!.id;
  for await (const e of engine.ask({ question, collections: paths.map((path) => ({ collectionId: id, path })) })) if (e.type === 'error') throw new Error(e.error.message);
}

// Three stored conversations over an imported folder (one asked of home/ only), opened on the Ask view.
const web = useBrowserApp({
  prefix: 'quire-e2e-tree',
  notes: (notes) => {
    notes.write('todo.md', '# Todo\n\nWater the plants.\n');
    // A skipped and a failed file lengthen the status bar's counts, as a real folder's do.
    notes.write('photo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    notes.write('broken.txt', new Uint8Array([0x61, 0x00, 0x62]));
    notes.write('home/garden/beds.md', '# Beds\n\nThe north bed grows tomatoes.\n');
    notes.write('work/keys.md', '# Keys\n\nWe rotate the deploy keys every 90 days.\n');
    notes.write('work/projects/q3/plan.md', '# Q3 plan\n\nShip the importer in September.\n');
    notes.write(`${LONG}/old.md`, '# Old\n\nThe old importer ran nightly.\n');
    for (let i = 0; i < DAYS; i++) notes.write(`journal/day-${String(i).padStart(3, '0')}/entry.md`, `# Day ${i}\n\nA short entry.\n`);
  },
  prepare: async (engine, notes) => {
    await importAndWait(engine, notes.root);
    await askStored(engine, 'How often are the deploy keys rotated?');
    await askStored(engine, 'What grows in the north bed?', ['home']);
    await askStored(engine, 'When does the importer ship?');
  },
  viewport: { width: 1280, height: 800 },
});
let page: Page;
let engine: Engine;
let notesName: string;
const shot = (name: string) => web.shot(`ask-${name}`);

beforeAll(async () => {
  ({ page, engine } = web);
  notesName = (await engine.call('library', {})).collections[0]!.name;
  await page.goto(web.app.url);
  await page.getByTestId('nav-ask').click();
  await page.getByTestId('status-bar').getByText(/Ollama connected/).waitFor();
});

describe('the Ask view in a browser', () => {
  it('scope picker: folders at any depth as a tree, closed below the top level, opened by keyboard; a ticked folder covers what is inside; hundreds of folders scroll in their box', async () => {
    const picker = page.getByTestId('scope-picker');
    await picker.locator('summary').click();
    const work = picker.getByRole('button', { name: `Folders inside ${notesName}/work`, exact: true });
    expect(await work.getAttribute('aria-expanded')).toBe('false');
    expect(await picker.getByLabel(`${notesName}/work/projects`, { exact: true }).count()).toBe(0);
    // By keyboard: Tab from the checkbox of the folder before it reaches the toggle; Enter opens it.
    await picker.getByLabel(`${notesName}/journal`, { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe(`Folders inside ${notesName}/work`);
    await page.keyboard.press('Enter');
    expect(await work.getAttribute('aria-expanded')).toBe('true');
    const projects = picker.getByRole('button', { name: `Folders inside ${notesName}/work/projects`, exact: true });
    await projects.focus();
    await page.keyboard.press('Space');
    const q3 = picker.getByLabel(`${notesName}/work/projects/q3`, { exact: true });
    await q3.check();
    await picker.getByLabel(`${notesName}/work`, { exact: true }).check();
    expect(await q3.isChecked()).toBe(true);
    expect(await q3.isDisabled()).toBe(true);
    expect(await picker.locator('summary strong').innerText()).toBe(`${notesName}/work`);
    // Deeper folders sit further right than their parents.
    const x = async (label: string) => (await picker.getByLabel(label, { exact: true }).boundingBox())!.x;
    expect(await x(`${notesName}/work/projects`)).toBeGreaterThan(await x(`${notesName}/work`));
    expect(await x(`${notesName}/work/projects/q3`)).toBeGreaterThan(await x(`${notesName}/work/projects`));

    await picker.getByRole('button', { name: `Folders inside ${notesName}/journal`, exact: true }).click();
    const list = picker.locator('.scope__list');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        const box = (await list.boundingBox())!;
        const says = `${width}×${height} ${scheme}`;
        expect(box.height, `the list's box is bounded, ${says}`).toBeLessThanOrEqual(18 * 16 + 4);
        expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight), `the list scrolls, ${says}`).toBe(true);
        expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `nothing runs off its right side, ${says}`).toBe(true);
        const question = (await page.getByTestId('question').boundingBox())!;
        expect(question.y + question.height, `the question box stays in the window, ${says}`).toBeLessThanOrEqual(height);
        await shot(`scope-tree-${width}x${height}-${scheme}`);
      }
    }
    // Long scopes keep the summary to one line: the first part and how many more.
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ colorScheme: 'light' });
    await picker.getByLabel(`${notesName}/work`, { exact: true }).uncheck();
    await picker.getByLabel(`${notesName}/work/projects/q3`, { exact: true }).check();
    await picker.getByLabel(`${notesName}/journal/day-007`, { exact: true }).check();
    await picker.getByLabel(`${notesName}/journal/day-123`, { exact: true }).check();
    expect(await picker.locator('summary strong').innerText()).toBe(`${notesName}/work/projects/q3, +2 more`);
    const summary = (await picker.locator('summary').boundingBox())!;
    expect(summary.height).toBeLessThan(2 * 16 * 0.9 * 1.6);
    await shot('scope-summary-800x600');
    await picker.getByLabel('All folders').check();
    await picker.locator('summary').click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('conversation rows show Rename and Delete only when hovered, focused or open, without moving, and reach them by Tab', async () => {
    const rows = page.locator('.conversation');
    await expect.poll(() => rows.count()).toBe(3);
    const rename = (i: number) => rows.nth(i).getByRole('button', { name: /^Rename/ });
    await page.mouse.move(1270, 790);
    for (let i = 0; i < 3; i++) expect(await rename(i).isVisible(), `row ${i} at rest`).toBe(false);
    const before = (await rows.nth(1).boundingBox())!;
    await rows.nth(1).hover();
    expect(await rename(1).isVisible()).toBe(true);
    expect(await rows.nth(1).getByRole('button', { name: /^Delete/ }).isVisible()).toBe(true);
    expect(await rename(0).isVisible()).toBe(false);
    expect(await rows.nth(1).boundingBox(), 'the row keeps its size and place').toEqual(before);
    await shot('conversations-hover-1280x800');
    await page.mouse.move(1270, 790);

    // Tab from the title search into the first row shows its actions; the next Tab is Rename.
    await page.getByTestId('conversation-search').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe('conversation');
    expect(await rename(0).isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toMatch(/^Rename “/);
    await page.keyboard.press('Tab');
    const del = (await page.evaluate('document.activeElement.getAttribute("aria-label")')) as string;
    expect(del).toMatch(/^Delete “/);
    await shot('conversations-keyboard-1280x800');
    // Delete still asks first.
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: 'Delete this conversation?' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await engine.call('conversations', {})).conversations).toHaveLength(3);

    // The open conversation shows them without a pointer or focus.
    await rows.nth(2).getByTestId('conversation').click();
    await page.locator('.conversation--current').waitFor();
    await page.mouse.move(1270, 790);
    await page.getByTestId('question').focus();
    expect(await page.locator('.conversation--current').getByRole('button', { name: /^Rename/ }).isVisible()).toBe(true);
    expect(await rename(0).isVisible()).toBe(false);
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`conversations-1280x800-${scheme}`);
    }
    // Narrow: the list is a menu; the same rule holds in it.
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.mouse.move(790, 590);
    expect(await rename(0).isVisible()).toBe(false);
    await rows.nth(0).hover();
    expect(await rename(0).isVisible()).toBe(true);
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`conversations-800x600-${scheme}`);
    }
    await page.getByRole('button', { name: 'Close conversations' }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("status bar: Ollama's version is never cut, at 800×600 and 1280×800, light and dark, the bar one line", async () => {
    const bar = page.getByTestId('status-bar');
    const ollamaPart = bar.locator('[data-ollama="connected"]');
    const version = (await engine.call('status', {})).ollama.version!;
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        const says = `${width}×${height} ${scheme}`;
        // Cut by even a fraction of a pixel, the text ends in an ellipsis, which scrollWidth (whole pixels) misses: compare with the width it takes unconstrained.
        const fit = await ollamaPart.evaluate((el) => {
          const free = el.cloneNode(true) as typeof el;
          free.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
          el.parentElement!.appendChild(free);
          const need = free.getBoundingClientRect().width;
          free.remove();
          return { need, has: el.getBoundingClientRect().width };
        });
        expect(fit.has, `the Ollama part is whole, ${says}`).toBeGreaterThanOrEqual(fit.need - 0.01);
        expect(await ollamaPart.innerText(), says).toContain(version);
        expect(await ollamaPart.getAttribute('title'), says).toBe(`Ollama connected · version ${version}`);
        expect((await bar.boundingBox())!.height, `one line, ${says}`).toBeLessThanOrEqual(2.1 * 16 + 1);
        const right = (await ollamaPart.boundingBox())!;
        expect(right.x + right.width, says).toBeLessThanOrEqual(width);
        await shot(`status-bar-${width}x${height}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
