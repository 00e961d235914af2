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
  it('scope picker: folders at any depth as a tree, closed below the top level, walked by arrow keys; a ticked folder covers what is inside; hundreds of folders scroll in their box', async () => {
    const picker = page.getByTestId('scope-picker');
    await picker.locator('summary').click();
    const row = (label: string) => picker.getByRole('treeitem', { name: label, exact: true });
    const focused = () => page.evaluate('document.activeElement.getAttribute("aria-label")');
    const work = row(`${notesName}/work`);
    expect(await work.getAttribute('aria-expanded')).toBe('false');
    expect(await row(`${notesName}/work/projects`).count()).toBe(0);
    // By keyboard: the tree is one Tab stop after All folders; arrows walk it, Right opens, Space ticks.
    await picker.getByLabel('All folders').focus();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(notesName);
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
    expect(await focused()).toBe(`${notesName}/work`);
    await page.keyboard.press('ArrowRight');
    expect(await work.getAttribute('aria-expanded')).toBe('true');
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
    expect(await focused()).toBe(`${notesName}/work/projects/q3`);
    await page.keyboard.press('Space');
    const q3 = row(`${notesName}/work/projects/q3`);
    expect(await q3.getAttribute('aria-checked')).toBe('true');
    await shot('scope-tree-keyboard-1280x800');
    // Shift+Tab leaves the tree in one step; Tab comes back to the row last moved to.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.parentElement.textContent.trim()')).toBe('All folders');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`${notesName}/work/projects/q3`);
    await work.locator(':scope > .scope__row').click();
    expect(await q3.getAttribute('aria-checked')).toBe('true');
    expect(await q3.getAttribute('aria-disabled')).toBe('true');
    expect(await picker.locator('summary strong').innerText()).toBe(`${notesName}/work`);
    // Deeper folders sit further right than their parents.
    const x = async (label: string) => (await row(label).locator(':scope > .scope__row').boundingBox())!.x;
    expect(await x(`${notesName}/work/projects`)).toBeGreaterThan(await x(`${notesName}/work`));
    expect(await x(`${notesName}/work/projects/q3`)).toBeGreaterThan(await x(`${notesName}/work/projects`));

    await row(`${notesName}/journal`).locator(':scope > .scope__row .scope__expand').click();
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
    await work.locator(':scope > .scope__row').click();
    await picker.getByLabel('All folders').check();
    await picker.locator('summary').click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("scope summary: a first place too long for the line is cut short, never its '+N more'; the whole list is the tooltip", async () => {
    const picker = page.getByTestId('scope-picker');
    await picker.locator('summary').click();
    const row = (label: string) => picker.getByRole('treeitem', { name: label, exact: true });
    const open = async (label: string) => {
      if ((await row(label).getAttribute('aria-expanded')) === 'false') await row(label).locator(':scope > .scope__row .scope__expand').click();
    };
    for (const label of ['work', 'work/projects', 'work/projects/archive-2019-and-everything-before-it', 'journal']) await open(`${notesName}/${label}`);
    const long = `${notesName}/${LONG}`;
    for (const label of [long, `${notesName}/journal/day-007`, `${notesName}/journal/day-123`]) await row(label).locator(':scope > .scope__row').click();
    await picker.locator('summary').click();
    const summary = picker.locator('summary');
    expect(await summary.locator('strong').getAttribute('title')).toBe(`${long}, ${notesName}/journal/day-007, ${notesName}/journal/day-123`);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        const says = `${width}×${height} ${scheme}`;
        // Where the words "+2 more" are drawn, found in the text whatever elements hold it (a string: these tests compile without the DOM's types).
        const at = (await page.evaluate(`(() => {
          const summary = document.querySelector('[data-testid="scope-picker"] summary');
          const nodes = [];
          const walk = document.createTreeWalker(summary, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode()) nodes.push(node);
          const text = nodes.map((n) => n.data).join('');
          const start = text.indexOf('+2 more');
          if (start < 0) return null;
          // The text nodes and offsets where the words begin and end (React may split them across nodes).
          const point = (offset) => {
            for (const n of nodes) {
              if (offset <= n.data.length) return [n, offset];
              offset -= n.data.length;
            }
          };
          const range = document.createRange();
          range.setStart(...point(start));
          range.setEnd(...point(start + 7));
          return { count: range.getBoundingClientRect().right, line: summary.getBoundingClientRect().right };
        })()`)) as { count: number; line: number } | null;
        expect(at, says).not.toBeNull();
        expect(at!.count, `"+2 more" is inside the line, ${says}`).toBeLessThanOrEqual(at!.line + 0.5);
        expect(await summary.locator('.scope__lead').evaluate((el) => el.scrollWidth > el.clientWidth), `the long place is what is cut, ${says}`).toBe(true);
        expect((await summary.boundingBox())!.height, `one line, ${says}`).toBeLessThan(2 * 16 * 0.9 * 1.6);
        await shot(`scope-summary-${width}x${height}-${scheme}`);
      }
    }
    await picker.locator('summary').click();
    await picker.getByLabel('All folders').check();
    await picker.locator('summary').click();
    await page.emulateMedia({ colorScheme: 'light' });
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

  it("reopening a conversation sets the picker to its last question's folders, says so, and a follow-up is asked of them; a new conversation returns to the person's choice", async () => {
    const picker = page.getByTestId('scope-picker');
    const summary = picker.locator('summary');
    /** What the summary says: the places, and where they came from if not from the person's ticks. */
    const says = async () => [await summary.locator('strong').innerText(), (await summary.locator('.scope__origin').count()) > 0 ? await summary.locator('.scope__origin').innerText() : null];
    const conversation = (title: string) => page.getByTestId('conversation').filter({ hasText: title });
    // The person's own choice first: journal/.
    await page.getByTestId('new-conversation').click();
    await summary.click();
    await picker.getByRole('treeitem', { name: `${notesName}/journal`, exact: true }).locator(':scope > .scope__row').click();
    await summary.click();
    expect(await says()).toEqual([`${notesName}/journal`, null]);

    await conversation('What grows in the north bed?').click();
    await expect.poll(says).toEqual([`${notesName}/home`, '· as this conversation’s last question']);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        expect((await summary.boundingBox())!.height, `one line, ${width}×${height} ${scheme}`).toBeLessThan(2 * 16 * 0.9 * 1.6);
        await shot(`scope-from-conversation-${width}x${height}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('question').fill('What else grows in the north bed?');
    await page.getByTestId('ask-button').click();
    await expect.poll(() => page.getByTestId('answer-scope').last().textContent(), { timeout: 20_000 }).toBe(`Asked of ${notesName}/home only.`);

    await page.getByTestId('new-conversation').click();
    expect(await says()).toEqual([`${notesName}/journal`, null]);
    await summary.click();
    await picker.getByLabel('All folders').check();
    await summary.click();
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
