import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/core/engine';
import type { Standin } from '../support/ollama-standin/server';
import { runCli } from '../support/cli-run';
import { NotesFolder } from '../support/notes';
import { importAndWait, ROOT, useBrowserApp, type BrowserApp } from './browser-app';

/**
 * The app as a person uses it: real Chromium, browser mode, the Ollama stand-in. Each state is
 * screenshotted into test-results/ so a person can look at what the test saw. Starts on the
 * first-run screen: nothing is imported until a test does it through the page.
 */
const web = useBrowserApp({
  prefix: 'quire-e2e',
  standin: { streamDelayMs: 25 },
  engine: { sampleNotesDir: path.join(ROOT, 'resources/sample-notes'), watch: true, watchTimings: { debounceMs: 200 } },
  notes: (notes) => {
    notes.write('ops/key-rotation.md', '# Key rotation\n\nWe rotate the deploy keys every 90 days.\nThe platform team owns the rotation.\n\n## Rollback\n\nOld keys stay valid for 48 hours after a rotation.\n');
    notes.write('food/sourdough.md', '# Sourdough\n\nBake the loaf at 250 degrees for twenty minutes with the lid on.\n');
    for (let i = 0; i < 8; i++) notes.write(`garden/bed-${i}.md`, `# Bed ${i}\n\n${'Compost, soil and seasons fill this long gardening note. '.repeat(25)}Bed ${i} grows tomatoes.\n`);
    notes.write('photo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    notes.write('broken.txt', new Uint8Array([0x61, 0x00, 0x62]));
    // Saved as windows-1252 ("ANSI") by an old editor: read in it, and listed as such.
    notes.write('food/receta.md', Buffer.from('# Receta\n\nLa canci\xf3n de la ni\xf1a: pan con caf\xe9.\n', 'latin1'));
  },
  viewport: { width: 1280, height: 860 },
});
let page: Page;
let engine: Engine;
let ollama: Standin;
let notes: NotesFolder;
let app: BrowserApp['app'];
// The handles, once started, under the short names the steps use.
beforeAll(() => ({ page, engine, ollama, notes, app } = web));
const shot = web.shot;

describe('Quire in a browser', () => {
  it('refuses API requests without the token', async () => {
    const res = await fetch(`${app.origin}/api/status`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: app.origin }, body: '{}' });
    expect(res.status).toBe(401);
    const wrong = await fetch(`${app.origin}/api/library`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: app.origin, Authorization: 'Bearer nope' }, body: '{}' });
    expect(wrong.status).toBe(401);
  });

  it('shows the first-run screen', async () => {
    await page.goto(app.url);
    await page.getByTestId('first-run').waitFor();
    await page.getByTestId('status-bar').getByText(/Ollama connected/).waitFor();
    await shot('01-first-run');
    // Loading the page (again) starts no stored conversation: one exists only once a question is answered in it.
    for (let i = 0; i < 2; i++) {
      await page.reload();
      await page.getByTestId('first-run').waitFor();
    }
    expect((await engine.call('conversations', {})).conversations).toEqual([]);
    // Ollama and its models are there: the setup steps' check passes, and leads on to the import.
    await page.getByTestId('setup-next').click({ timeout: 20_000 });
    await page.getByTestId('setup-notes').waitFor();
  });

  it('keeps each first-run button\'s label on one line, at the desktop window\'s default size (1200×820) and at the smallest (720×480)', async () => {
    try {
      for (const [width, height] of [
        [1200, 820],
        [720, 480],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const name of ['Try the sample notes', 'Import a folder…']) {
          // A wrapped label is laid out as more than one line box: one client rect per line.
          const lines = await page
            .getByTestId('first-run')
            .getByRole('button', { name })
            .evaluate((b) => {
              const range = b.ownerDocument.createRange();
              range.selectNodeContents(b);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            });
          expect(lines, `${name} at ${width}×${height}`).toBe(1);
        }
        await shot(`01-first-run-${width}x${height}`, page.getByTestId('first-run'));
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('imports a folder and shows progress reaching done, with skipped and failed files explained', async () => {
    await page.getByTestId('import-path').fill(notes.root);
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    const summary = await page.getByTestId('import-summary').innerText();
    expect(summary).toMatch(/11 added/);
    expect(summary).toMatch(/1 file read in a guessed encoding/);
    await page.getByTestId('import-notices').getByText('read in a guessed encoding').click();
    await page.getByTestId('import-notices').getByText('food/receta.md').waitFor();
    // Skipped files grouped by kind and reason, the list a click away; failures listed.
    expect(summary).toMatch(/1 image \(\.png 1\) — not a note format/);
    expect(summary).toMatch(/broken\.txt/);
    await page.getByTestId('skip-groups').getByText('1 image').click();
    await page.getByTestId('skip-groups').getByText('photo.png').waitFor();
    await shot('02-import-done');
  });

  it('streams an answer with a citation chip whose panel highlights the cited lines', async () => {
    await page.getByTestId('nav-ask').click();
    await page.getByTestId('question').fill('How often are the deploy keys rotated?');
    await page.getByTestId('ask-button').click();
    const chip = page.getByTestId('citation-chip').first();
    await chip.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('answer').innerText()).toMatch(/every 90 days/);
    await expect.poll(() => chip.getAttribute('aria-label')).toMatch(/supported/);
    await page.getByTestId('budget-meter').waitFor();
    // llama3.2 is counted with its own tokenizer and template: the meter says so.
    await expect.poll(() => page.getByTestId('budget-accuracy').last().innerText()).toBe('exact');
    await shot('03-answer', page.getByTestId('budget-meter').last());
    await chip.click();
    const panel = page.getByTestId('source-panel');
    await panel.waitFor();
    await expect.poll(() => panel.innerText()).toMatch(/ops\/key-rotation\.md/);
    const highlighted = await page.getByTestId('source-highlight').allInnerTexts();
    expect(highlighted.join('\n')).toMatch(/every 90 days/);
    await shot('04-source-panel');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('shows a refusal when the documents do not say', async () => {
    await page.getByTestId('question').fill('What is the office wifi password?');
    await page.getByTestId('ask-button').click();
    await page.getByTestId('refusal').last().waitFor({ timeout: 20_000 });
    await shot('05-refusal', page.getByTestId('refusal').last());
  });

  it('warns when Ollama cut the prompt', async () => {
    ollama.faults.numCtxOverride = 600;
    try {
      await page.getByTestId('question').fill('Which garden bed grows tomatoes?');
      await page.getByTestId('ask-button').click();
      await page.getByTestId('truncation-warning').last().waitFor({ timeout: 20_000 });
      await shot('06-truncation-warning', page.getByTestId('truncation-warning').last());
    } finally {
      ollama.faults.numCtxOverride = null;
    }
  });

  it('lists the models in Settings and pulls one with progress', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByText('llama3.2:latest').first().waitFor();
    await page.getByLabel('Model name').fill('all-minilm');
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /all-minilm/ }).waitFor({ timeout: 20_000 });
    await page.getByText('all-minilm:latest').first().waitFor({ timeout: 10_000 });
    await shot('07-settings-pulled', page.getByRole('status').filter({ hasText: /all-minilm/ }));
    await page.getByTestId('nav-ask').click();
  });

  it('Settings: a mistyped chat model is refused naming the installed ones, the picker offers them, the status bar shows the chat model', async () => {
    await page.getByTestId('nav-settings').click();
    const chat = page.getByLabel('Chat model');
    await chat.fill('lama3.2');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/has no model "lama3\.2"\. Installed: .*llama3\.2/).first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Save anyway' }).waitFor();
    await shot('08a-settings-mistyped-model', page.locator('.settings-form'));
    expect(await chat.getAttribute('list')).toBe('installed-models');
    expect(await page.locator('#installed-models option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toContain('qwen2.5:0.5b');
    await chat.fill('qwen2.5:0.5b');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('status-bar').getByText('qwen2.5:0.5b').waitFor({ timeout: 10_000 });
    await chat.fill('llama3.2');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('status-bar').getByText('llama3.2').waitFor({ timeout: 10_000 });
    await page.getByTestId('nav-ask').click();
  });

  it('Settings: hybrid fusion is a method and its number, saved as the setting string', async () => {
    await page.getByTestId('nav-settings').click();
    const method = page.getByLabel('Hybrid fusion: method');
    await method.selectOption({ label: 'Weighted' });
    const share = page.getByLabel("Vectors' share (w)");
    expect(await share.inputValue()).toBe('0.2');
    await share.fill('0.4');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await engine.call('getSettings', {})).fusion, { timeout: 10_000 }).toBe('weighted:0.4');
    await share.scrollIntoViewIfNeeded();
    await shot('08c-settings-fusion');
    await method.selectOption({ label: 'Reciprocal rank' });
    expect(await page.getByLabel('Rank constant (k)').inputValue()).toBe('60');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await engine.call('getSettings', {})).fusion, { timeout: 10_000 }).toBe('rrf:60');
    await page.getByTestId('nav-ask').click();
  });

  it('Settings open while `quire settings set` changes them: shown once the window is back in front, and a save sends what was typed, never the old values back', async () => {
    await page.getByTestId('nav-settings').click();
    const k = page.getByLabel('Passages per answer (k)');
    const mode = page.getByLabel('Search mode', { exact: true });
    await expect.poll(() => k.inputValue()).toBe('6');
    expect(await mode.inputValue()).toBe('hybrid');
    // The CLI on the same database, as a person would run it in a terminal: its own engine and connection.
    const cli = await runCli(['settings', 'set', 'k', '3', 'searchMode', 'lexical'], { QUIRE_DB: web.db.name, OLLAMA_HOST: ollama.url });
    expect(cli.code).toBe(0);
    // Back to the window. Headless Chromium counts every page as focused and sends none, so the event is sent here.
    await page.evaluate("window.dispatchEvent(new FocusEvent('focus'))");
    await expect.poll(() => k.inputValue(), { timeout: 10_000 }).toBe('3');
    expect(await mode.inputValue()).toBe('lexical');
    await shot('08d-settings-changed-by-cli', k);
    // Typing back what the form showed before is a change now, and is saved.
    await k.fill('6');
    await mode.selectOption('hybrid');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await engine.call('getSettings', {})).k, { timeout: 10_000 }).toBe(6);
    expect((await engine.call('getSettings', {})).searchMode).toBe('hybrid');
    await page.getByTestId('nav-ask').click();
  });

  it('Settings in browser mode: saved header values are said to be stored unencrypted, the environment suggested instead', async () => {
    await page.getByTestId('nav-settings').click();
    const note = page.getByTestId('header-storage');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/stored unencrypted in Quire's database .*Prefer QUIRE_OLLAMA_HEADERS or --ollama-header/);
    await note.scrollIntoViewIfNeeded();
    await shot('08b-settings-header-storage');
    await page.getByTestId('nav-ask').click();
  });

  it('with Ollama stopped: the status bar says keyword search only, and search still works', async () => {
    await ollama.stop();
    try {
      await page.getByTestId('status-bar').getByText(/Keyword search only/).waitFor({ timeout: 15_000 });
      await page.getByTestId('search-box').fill('sourdough loaf');
      await page.getByTestId('search-box').press('Enter');
      const hit = page.getByText('food/sourdough.md').first();
      await hit.waitFor({ timeout: 10_000 });
      await hit.scrollIntoViewIfNeeded();
      await shot('08-ollama-down-search');
      // Narrow, the bar stays one line; what to do is the tooltip's longer sentence (test/e2e/layout.e2e.ts checks nothing is cut).
      await page.setViewportSize({ width: 800, height: 600 });
      const bar = page.getByTestId('status-bar');
      const down = bar.locator('[data-ollama="down"]');
      expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(2.1 * 16 + 1);
      // Once, with where the host came from and the advice for that (here OLLAMA_HOST, as the stand-in is found).
      expect(await down.getAttribute('title')).toMatch(/^Keyword search only: Ollama is not running at http:\/\/127\.0\.0\.1:\d+ \(from OLLAMA_HOST\)\. Start it there with "ollama serve", or correct OLLAMA_HOST; a host saved in Settings would be used over it\.$/);
      await shot('08-ollama-down-800x600');
      await page.setViewportSize({ width: 1280, height: 860 });
    } finally {
      await ollama.start();
    }
  });

  it('opens a search result in the source panel, its hit highlighted, and shows its heading once', async () => {
    await page.getByTestId('search-box').fill('old keys valid rotation');
    await page.getByTestId('search-box').press('Enter');
    const result = page.getByTestId('search-result').filter({ hasText: 'ops/key-rotation.md' }).first();
    await result.waitFor({ timeout: 10_000 });
    const item = result.locator('xpath=ancestor::li');
    const text = await item.innerText();
    // The heading once, beside the place; the snippet does not open with its Markdown heading line again.
    expect(text.match(/Key rotation/g) ?? []).toHaveLength(1);
    // Plain text, the query's words marked.
    expect(text).not.toMatch(/#/);
    expect(await item.locator('mark').allInnerTexts()).toEqual(expect.arrayContaining(['Old keys', 'valid', 'rotation']));
    await shot('09-search-result-marks', item);
    await result.click();
    const panel = page.getByTestId('source-panel');
    await panel.waitFor();
    await expect.poll(() => panel.getByRole('heading', { level: 2 }).innerText()).toMatch(/^Search result \d+$/);
    // The passage's text arrives after the panel's heading: on a loaded machine the highlight was read still empty.
    await expect.poll(async () => (await page.getByTestId('source-highlight').allInnerTexts()).join('\n')).toMatch(/Old keys stay valid for 48 hours/);
    // Line numbers run on without a gap, also across chunk boundaries.
    const numbers = await panel.locator('.source-text li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('value'))));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    await shot('08b-search-result-in-panel');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('watches a folder from the library: a new note appears without a re-sync, and pausing holds it', async () => {
    await page.getByTestId('nav-library').click();
    const card = page.getByRole('region', { name: `Folder ${notes.root}` });
    await card.getByRole('button', { name: 'Watch for changes' }).click();
    await card.getByText('Watching · up to date').waitFor({ timeout: 15_000 });
    notes.write('garden/wombats.md', '# Wombats\n\nWombats dig burrows under the compost heap.\n');
    await card.getByText('garden/wombats.md').waitFor({ timeout: 15_000 });
    await card.getByText('Watching · up to date').waitFor({ timeout: 15_000 });
    await shot('09-library-watching', page.getByTestId('watch-controls'));
    // The folder goes away (a drive unplugged, renamed away) and comes back: the card says so, then watches again.
    fs.renameSync(notes.root, `${notes.root}-away`);
    try {
      await card.getByText(/Watching, with a problem/).waitFor({ timeout: 15_000 });
      await card.getByRole('note').getByText(`The folder ${notes.root} is gone or cannot be read`, { exact: false }).waitFor();
      await shot('09b-library-folder-gone', page.getByTestId('watch-controls'));
    } finally {
      fs.renameSync(`${notes.root}-away`, notes.root);
    }
    await card.getByText('Watching · up to date').waitFor({ timeout: 15_000 });
    notes.write('garden/quokkas.md', '# Quokkas\n\nQuokkas smile at the camera.\n');
    await card.getByText('garden/quokkas.md').waitFor({ timeout: 15_000 });
    await card.getByText('Watching · up to date').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText(/Watching paused/).waitFor();
    await shot('10-library-paused', page.getByTestId('watch-controls'));
    await card.getByRole('button', { name: 'Stop watching' }).click();
    await card.getByRole('button', { name: 'Watch for changes' }).waitFor();
  });

  it('follows the OS dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('nav-library').click();
    await shot('11-library-dark');
    const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
    const [r, g, b] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
    expect((r! + g! + b!) / 3).toBeLessThan(80);
  });

  it('keeps the conversation over a reload: reopened from the database as it was, listed in the sidebar', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('nav-ask').click();
    await expect.poll(() => page.evaluate('window.location.hash')).toMatch(/^#conversation=\d+$/);
    await page.reload();
    await page.getByTestId('nav-ask').click();
    // The first answer, its checked citation and its budget, read back from the database.
    await expect.poll(() => page.getByTestId('answer').first().innerText(), { timeout: 15_000 }).toMatch(/every 90 days/);
    await expect.poll(() => page.getByTestId('citation-chip').first().getAttribute('aria-label')).toMatch(/supported/);
    await page.getByTestId('refusal').first().waitFor();
    expect(await page.getByTestId('budget-meter').count()).toBeGreaterThanOrEqual(3);
    const current = page.locator('[data-testid="conversation"][aria-current="true"]');
    expect(await current.innerText()).toBe('How often are the deploy keys rotated?');
    await page.evaluate('window.scrollTo(0, 0)');
    await shot('12-conversation-reopened');

    // A follow-up continues it: still one conversation, one more turn.
    await page.getByTestId('question').fill('Who owns the rotation?');
    await page.getByTestId('ask-button').click();
    await expect.poll(() => page.getByTestId('answer').count(), { timeout: 20_000 }).toBe(4);
    await expect.poll(async () => (await engine.call('conversations', {})).conversations.map((c) => c.turnCount)).toEqual([4]);
  });

  it('holds its layout at 800×600 and 1280×800, light and dark: a readable answer beside the open source panel, the follow-up box clear of it', async () => {
    await page.getByTestId('nav-ask').click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('question').fill('How often are the deploy keys rotated?');
    await page.getByTestId('ask-button').click();
    const chip = page.getByTestId('citation-chip').first();
    await expect.poll(() => chip.getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/supported/);
    await page.getByTestId('save-as-test').last().waitFor();
    for (const [width, height] of [
      [800, 600],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await chip.click();
      await page.getByTestId('source-highlight').first().waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const m = await measureLayout();
        // At least 45 characters per line, in the part of the answer nothing covers.
        expect(m.charsPerLine, `${width}×${height} ${scheme}: ${JSON.stringify(m)}`).toBeGreaterThanOrEqual(45);
        expect(m.answerRight, 'the answer reflows left of the panel').toBeLessThanOrEqual(m.panelLeft + 1);
        expect(m.highlightVisible, 'the cited lines are in view in the panel').toBe(true);
        await shot(`13-layout-${width}x${height}-${scheme}`);
        const bar = await measureStatusBar();
        const says = `${width}×${height} ${scheme}: ${JSON.stringify(bar)}`;
        expect(bar.lines, `the status bar is one line, ${says}`).toBe(1);
        expect(bar.panelBottom, `the panel ends above the status bar, ${says}`).toBeLessThanOrEqual(bar.top + 0.5);
        // What the probe saw covered ("412 d…"): the counts whole, and what is at their end is the bar, not the panel.
        expect(bar.countsWhole, says).toBe(true);
        expect(bar.countsEndInBar, says).toBe(true);
        expect(bar.cutWithoutTitle, `an item cut short keeps its whole text as a tooltip, ${says}`).toEqual([]);
      }
      await page.keyboard.press('Escape');
      await page.getByTestId('source-panel').waitFor({ state: 'detached' });
      // The last answer's buttons, scrolled into view, are clear of the follow-up box and receive clicks.
      const buttons = page.getByTestId('answer').last().locator('xpath=ancestor::article').locator('button');
      const box = (await page.locator('.question-box').boundingBox())!;
      for (const b of await buttons.all()) {
        if (!(await b.isVisible())) continue;
        await b.scrollIntoViewIfNeeded();
        const r = (await b.boundingBox())!;
        const overlaps = r.x < box.x + box.width && box.x < r.x + r.width && r.y < box.y + box.height && box.y < r.y + r.height;
        expect(overlaps, `${width}×${height}: ${await b.innerText()} under the follow-up box`).toBe(false);
        // Nothing else is on top of its centre: a click there reaches this button.
        const onTop = await page.evaluate(`(() => { const t = document.elementFromPoint(${r.x + r.width / 2}, ${r.y + r.height / 2}); const b = t && t.closest('button'); return b ? b.innerText : null; })()`);
        expect(onTop).toBe(await b.innerText());
      }
    }
  });

  it('asks of one folder only: the picker limits the question, and the answer says so', async () => {
    const garden = new NotesFolder('quire-e2e-garden-');
    try {
      garden.write('bulbs.md', '# Bulbs\n\nPlant the deploy tulips every 90 days in the north bed.\n');
      // Imported as the Library does, as a job: its end tells the window the library changed.
      await importAndWait(engine, garden.root);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByTestId('nav-ask').click();
      await page.getByTestId('new-conversation').click();
      const picker = page.getByTestId('scope-picker');
      await picker.locator('summary').click();
      const name = (await engine.call('library', {})).collections.find((c) => c.root === garden.root)!.name;
      await picker.getByLabel(name).check();
      await page.getByTestId('question').fill('How often are the deploy keys rotated?');
      await page.getByTestId('ask-button').click();
      await expect.poll(() => page.getByTestId('answer-scope').last().textContent(), { timeout: 20_000 }).toBe(`Asked of ${name} only.`);
      const run = (await engine.call('conversations', {})).conversations[0]!;
      expect(run.title).toBe('How often are the deploy keys rotated?');
      // Nothing from the other folder was a candidate.
      const trace = await page.getByTestId('answer').last().innerText();
      expect(trace).not.toMatch(/platform team/);
      await shot('14-scoped-answer', page.getByTestId('answer-scope').last());
      // A folder inside an imported folder: ops/ of the notes, offered under them.
      const notesName = (await engine.call('library', {})).collections.find((c) => c.root === notes.root)!.name;
      await picker.getByLabel(name).uncheck();
      await picker.getByLabel(`${notesName}/ops`, { exact: true }).check();
      await shot('14b-scope-subfolders', picker);
      await page.getByTestId('question').fill('How often are the deploy keys rotated?');
      await page.getByTestId('ask-button').click();
      await expect.poll(() => page.getByTestId('answer-scope').last().textContent(), { timeout: 20_000 }).toBe(`Asked of ${notesName}/ops only.`);
      expect(await page.getByTestId('answer').last().innerText()).not.toMatch(/tulips/);
      await picker.getByLabel('All folders').check();
    } finally {
      await engine.forgetFolder(garden.root);
      garden.dispose();
    }
  });
  it('a long passage scrolled to its highlight keeps the panel\'s heading and Close in view', async () => {
    const drills = new NotesFolder('quire-e2e-drills-');
    try {
      const filler = Array.from({ length: 34 }, (_, i) => `Step ${i + 1}: check the rack.`).join('\n');
      drills.write('failover.md', `# Failover drill\n\n${filler}\nThe failover drill runs on the first Tuesday of each quarter.\n`);
      await importAndWait(engine, drills.root);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('nav-ask').click();
      await page.getByTestId('new-conversation').click();
      await page.getByTestId('question').fill('When does the failover drill run?');
      await page.getByTestId('ask-button').click();
      const chip = page.getByTestId('citation-chip').first();
      await expect.poll(() => chip.getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/failover\.md/);
      await chip.click();
      const panel = page.getByTestId('source-panel');
      await page.getByTestId('source-highlight').first().waitFor();
      // The panel did scroll (the highlight is far down the passage), and its head stayed.
      await expect.poll(() => panel.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      const top = async (loc: ReturnType<Page['getByTestId']>) => (await loc.boundingBox())!.y;
      expect(await top(panel.getByRole('button', { name: 'Close source panel' }))).toBeGreaterThanOrEqual(await top(panel));
      expect(await top(panel.getByRole('heading', { name: 'Source 1' }))).toBeGreaterThanOrEqual(await top(panel));
      await shot('15-long-passage-panel');
      await page.keyboard.press('Escape');
      // In a narrow window the panel floats over the right: it must end at the window's bottom and
      // scroll inside, or a long passage's highlight lies below the window, out of reach.
      await page.setViewportSize({ width: 800, height: 600 });
      await chip.click();
      await page.getByTestId('source-highlight').first().waitFor();
      await expect.poll(() => panel.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      const box = (await panel.boundingBox())!;
      expect(box.y + box.height, 'the floating panel ends inside the window').toBeLessThanOrEqual(600);
      const hit = (await page.getByTestId('source-highlight').first().boundingBox())!;
      expect(hit.y, 'the highlight is below the panel\'s head').toBeGreaterThanOrEqual(box.y);
      expect(hit.y + Math.min(hit.height, 40), 'the highlight is inside the window').toBeLessThanOrEqual(box.y + box.height);
      await shot('15-long-passage-panel-800x600');
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await engine.forgetFolder(drills.root);
      drills.dispose();
    }
  });
});

/** Characters per line of the last answer (its uncovered width over the average width of a character of its font), and where the panel is. Runs in the page (a string: these tests compile without the DOM's types). */
async function measureLayout(): Promise<{ charsPerLine: number; answerRight: number; panelLeft: number; highlightVisible: boolean }> {
  return (await page.evaluate(`(() => {
    const answers = document.querySelectorAll('[data-testid="answer"]');
    const answer = answers[answers.length - 1];
    const panel = document.querySelector('[data-testid="source-panel"]');
    const a = answer.getBoundingClientRect();
    const p = panel.getBoundingClientRect();
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    // Ordinary prose, so the average is that of the text people read.
    probe.textContent = 'We rotate the deploy keys every 90 days, and at once when someone leaves the team.';
    answer.appendChild(probe);
    const charWidth = probe.getBoundingClientRect().width / probe.textContent.length;
    probe.remove();
    const visible = Math.min(a.right, p.left > a.left ? p.left : a.right) - a.left;
    const hit = panel.querySelector('[data-testid="source-highlight"]').getBoundingClientRect();
    return { charsPerLine: Math.floor(visible / charWidth), answerRight: a.right, panelLeft: p.left, highlightVisible: hit.top >= p.top && hit.bottom <= p.bottom };
  })()`)) as { charsPerLine: number; answerRight: number; panelLeft: number; highlightVisible: boolean };
}

/** The status bar beside the open source panel: its lines, whether the counts show whole and uncovered, and the cut items without a tooltip. */
async function measureStatusBar(): Promise<{ lines: number; top: number; panelBottom: number; countsWhole: boolean; countsEndInBar: boolean; cutWithoutTitle: string[] }> {
  return (await page.evaluate(`(() => {
    const bar = document.querySelector('[data-testid="status-bar"]');
    const b = bar.getBoundingClientRect();
    const panel = document.querySelector('[data-testid="source-panel"]').getBoundingClientRect();
    const items = [...bar.querySelectorAll('.status-bar__item')];
    const counts = bar.querySelector('[data-status="counts"]');
    const c = counts.getBoundingClientRect();
    const atEnd = document.elementFromPoint(Math.min(c.right, innerWidth) - 3, c.top + c.height / 2);
    return {
      // An item starting below the first one's bottom is on a line of its own.
      lines: 1 + items.filter((i) => i.getBoundingClientRect().top >= items[0].getBoundingClientRect().bottom - 1).length,
      top: b.top,
      panelBottom: panel.bottom,
      countsWhole: counts.scrollWidth <= counts.clientWidth && c.right <= b.right,
      countsEndInBar: !!atEnd && counts.contains(atEnd),
      cutWithoutTitle: items.filter((i) => i.scrollWidth > i.clientWidth && !i.title.startsWith(i.textContent.trim())).map((i) => i.textContent),
    };
  })()`)) as { lines: number; top: number; panelBottom: number; countsWhole: boolean; countsEndInBar: boolean; cutWithoutTitle: string[] };
}
