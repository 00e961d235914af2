import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, openDatabase, type Db, type Engine } from '../../electron/core/engine';
import { startBrowserMode } from '../../electron/web/server';
import { startStandin, type Standin } from '../support/ollama-standin/server';
import { tempDbPath } from '../support/notes';
import { launchChromium } from './browser';

/**
 * Evaluation as a person uses it: import the sample notes, save two answers as tests, run
 * the folder's question set over two chunkers × two search modes with the stand-in's chat model,
 * then read the results (sort, chart, one question across configurations) and export them.
 * Screenshots go to test-results/evaluate-*.png for a person to look at.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const STATIC = path.join(ROOT, 'dist/renderer');
const SHOTS = path.join(ROOT, 'test-results');
const SAMPLE = path.join(ROOT, 'resources/sample-notes');

/** What the page's canvas offers (this file is compiled without the DOM library). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

let ollama: Standin;
let dbFile: ReturnType<typeof tempDbPath>;
let evalDir: ReturnType<typeof tempDbPath>;
let db: Db;
let engine: Engine;
let app: Awaited<ReturnType<typeof startBrowserMode>>;
let browser: Browser;
let page: Page;

async function shot(name: string, focus?: Locator): Promise<void> {
  if (focus) await focus.scrollIntoViewIfNeeded();
  // No hover highlight left wherever the last click was.
  await page.mouse.move(2, 890);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Scrolls the app's main area so that `el` sits at its top. */
async function scrollToTop(el: Locator): Promise<void> {
  await el.evaluate((node) => node.scrollIntoView({ block: 'start' }));
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  ollama = await startStandin({ streamDelayMs: 2 });
  process.env.OLLAMA_HOST = ollama.url;
  dbFile = tempDbPath('quire-e2e-eval-db-');
  evalDir = tempDbPath('quire-e2e-eval-idx-');
  db = openDatabase(dbFile.file);
  engine = createEngine({ dbPath: dbFile.file, open: () => db, sampleNotesDir: SAMPLE, evalDir: path.dirname(evalDir.file) });
  app = await startBrowserMode({ engine, staticDir: STATIC });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (e) => console.error('page error:', e.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await engine?.close();
  await ollama?.close();
  dbFile?.dispose();
  evalDir?.dispose();
});

describe('Evaluate in a browser', () => {
  it('imports the sample notes', async () => {
    await page.goto(app.url);
    await page.getByTestId('first-run').waitFor();
    // The setup steps' check passes with the stand-in's models, and leads on to the import.
    await page.getByTestId('setup-next').click({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Try the sample notes' }).click();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start asking' }).click();
  });

  it('saves an answer and a refusal as tests from the Ask view', async () => {
    await page.getByTestId('question').fill('How often are the deploy keys rotated?');
    await page.getByTestId('ask-button').click();
    await page.getByTestId('citation-chip').first().waitFor({ timeout: 20_000 });
    const save = page.getByTestId('save-as-test').last();
    await save.waitFor({ timeout: 20_000 });
    await save.click();
    const saved = page.getByTestId('save-as-test-saved').last();
    await expect.poll(() => saved.innerText(), { timeout: 10_000 }).toMatch(/expects a passage containing “.*every 90 days.*”/s);
    expect(await save.isDisabled()).toBe(true);
    await shot('evaluate-save-as-test', saved);

    await page.getByTestId('question').fill('What is the office wifi password?');
    await page.getByTestId('ask-button').click();
    await page.getByTestId('refusal').last().waitFor({ timeout: 20_000 });
    await page.getByTestId('save-as-test').last().click();
    await expect.poll(() => page.getByTestId('save-as-test-saved').last().innerText(), { timeout: 10_000 }).toBe('Saved for Evaluate: expects a refusal.');
  });

  it('sets up a grid from the folder’s question set: two chunkers × two modes with the stand-in’s chat model', async () => {
    await page.getByTestId('nav-evaluate').click();
    const setup = page.getByTestId('eval-setup');
    await setup.waitFor();
    const folderSet = page.getByRole('radio', { name: /Questions in this folder/ });
    await expect.poll(() => folderSet.isChecked(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByTestId('eval-question-sets').innerText()).toMatch(/Saved from answers[\s\S]*2 questions: 1 answerable, 1 unanswerable/);
    await expect.poll(() => page.getByTestId('saved-questions').innerText()).toMatch(/expects a refusal/);

    const chat = page.getByTestId('eval-chat-models');
    await chat.getByRole('checkbox', { name: 'llama3.2:latest' }).check();
    for (const other of await chat.getByRole('checkbox').all()) {
      if ((await other.getAttribute('value')) !== 'llama3.2:latest') await other.uncheck();
    }
    await page.getByTestId('eval-chunkers').getByRole('checkbox', { name: /heading:256/ }).check();
    await page.getByTestId('eval-chunkers').getByRole('checkbox', { name: /fixed:128\/25/ }).check();
    await page.getByTestId('eval-modes').getByRole('checkbox', { name: /lexical/ }).check();
    await page.getByTestId('eval-modes').getByRole('checkbox', { name: /hybrid/i }).check();
    await page.getByLabel('Passages per question (k)').fill('4');
    await expect.poll(() => page.getByTestId('eval-estimate').innerText()).toMatch(/4 configurations × 7 questions × 1 repeat = 28 answers/);
    await shot('evaluate-setup', page.getByTestId('eval-estimate'));
  });

  it('runs it with progress and shows the results', async () => {
    await page.getByTestId('eval-run').click();
    await page.getByTestId('eval-progress').waitFor({ timeout: 10_000 });
    const results = page.getByTestId('eval-results');
    await page.getByTestId('eval-table').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('eval-progress').count()).toBe(0);
    // The report opened by itself: focus is on its heading, and the end was announced.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('data-testid'))).toBe('eval-report-title');
    expect(await page.getByTestId('eval-announce').innerText()).toBe('The evaluation finished; its report is open.');
    const rows = page.getByTestId('eval-table').locator('tbody tr');
    expect(await rows.count()).toBe(4);
    const header = await results.locator('.eval-report-head').innerText();
    expect(header).toMatch(/5 answerable, 2 unanswerable/);
    expect(header).toMatch(/llama3\.2/);

    // Sort by hit@k: best first, then reversed; the arrow and aria-sort follow.
    const hitK = page.getByTestId('eval-table').getByRole('button', { name: /^hit@k/ });
    await hitK.click();
    const th = page.getByTestId('eval-table').locator('th[data-col="hitK"]');
    expect(await th.getAttribute('aria-sort')).toBe('descending');
    const values = async () => (await rows.locator('td[data-col="hitK"]').allInnerTexts()).map((t) => (t === '—' ? -1 : Number(t.replace('%', ''))));
    const desc = await values();
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await hitK.click();
    expect(await th.getAttribute('aria-sort')).toBe('ascending');
    await hitK.click();
    await scrollToTop(page.getByTestId('eval-results'));
    await shot('evaluate-results');
    // Scrolled sideways, the first column still names each row.
    await page.getByTestId('eval-table').evaluate((el) => el.scrollBy({ left: 10_000 }));
    expect(await rows.first().locator('th').isVisible()).toBe(true);
    await shot('evaluate-results-scrolled');
    await page.getByTestId('eval-table').evaluate((el) => el.scrollBy({ left: -10_000 }));
  });

  it('charts one metric per configuration', async () => {
    const chart = page.getByTestId('eval-chart');
    await page.getByTestId('eval-chart-metric').selectOption('hitK');
    await scrollToTop(chart);
    const box = await chart.locator('canvas').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(300);
    expect(box?.height ?? 0).toBeGreaterThan(100);
    // The canvas has drawn something (not all transparent).
    const painted = () => chart.locator('canvas').evaluate((el) => {
      const c = el as unknown as Canvas;
      const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      if (d) for (let i = 3; i < d.length; i += 4) if ((d[i] as number) > 0) n++;
      return n;
    });
    await expect.poll(painted, { timeout: 10_000 }).toBeGreaterThan(1000);
    expect(await chart.getByTestId('eval-chart-values').innerText()).toMatch(/heading:256 · lexical: \d+%/);
    await shot('evaluate-chart');
  });

  it('compares one question across configurations, with each run’s answer and passages', async () => {
    const drill = page.getByTestId('eval-drilldown');
    await drill.getByRole('button', { name: /How long do old deploy keys stay valid/ }).click();
    const cols = drill.getByTestId('eval-run-column');
    expect(await cols.count()).toBe(4);
    const first = await cols.first().innerText();
    expect(first).toMatch(/baseline/);
    expect(first).toMatch(/RETRIEVED/i);
    expect(first).toMatch(/key-rotation\.md/);
    await scrollToTop(drill);
    await shot('evaluate-drilldown');
  });

  it('exports CSV and JSON', async () => {
    await scrollToTop(page.getByTestId('eval-results'));
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('eval-export-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/^quire-eval-.*\.csv$/);
    const csvText = fs.readFileSync((await csv.path()) as string, 'utf8');
    const lines = csvText.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^chat_model,embed_model,chunker,k,mode,fusion,hit_at_1,hit_at_3,hit_at_5,hit_at_k,mrr,fact_sent,source_tokens_p50,/);
    expect(lines).toHaveLength(5);
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('eval-export-json').click()]);
    const report = JSON.parse(fs.readFileSync((await json.path()) as string, 'utf8')) as { configs: unknown[]; run: { questionSet: { questions: unknown[] } } };
    expect(report.configs).toHaveLength(4);
    expect(report.run.questionSet.questions).toHaveLength(7);
  });

  it('lists the run among earlier evaluations and reopens it', async () => {
    await page.getByTestId('eval-back').click();
    const list = page.getByTestId('eval-reports');
    const item = list.getByRole('button', { name: /4 configurations/ });
    await item.waitFor();
    await item.click();
    await page.getByTestId('eval-table').waitFor();
    expect(await page.getByTestId('eval-table').locator('tbody tr').count()).toBe(4);
  });

  it('runs the report again and finds it reproduced', async () => {
    const again = page.getByTestId('eval-run-again');
    await again.click();
    await page.getByTestId('eval-progress').waitFor({ timeout: 10_000 });
    expect(await again.isDisabled()).toBe(true);
    // The new report opens by itself, compared with the one it repeated.
    const result = page.getByTestId('eval-compare-result');
    await result.waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('eval-progress').count()).toBe(0);
    // Focus went to the new report's heading, and the end was announced.
    await expect.poll(() => page.getByTestId('eval-announce').innerText()).toBe('The evaluation finished; its report is open.');
    expect(await page.getByTestId('eval-table').locator('tbody tr').count()).toBe(4);
    expect(await page.getByTestId('eval-compare-headline').innerText()).toMatch(/^Reproduced: every score and answer is the same/);
    expect(await result.innerText()).toMatch(/timing figures? moved \(timings never repeat exactly\)|No timing figure moved/);
    const select = page.getByTestId('eval-compare-select');
    expect(await select.inputValue()).not.toBe('');
    expect(await page.getByTestId('eval-run-again').isDisabled()).toBe(false);
    // It ran in the indexes the first run built, and says so as quire eval does.
    expect(await page.getByTestId('eval-index-reuse').innerText()).toBe(
      'Reused all 2 indexes an earlier run built: no document had changed, so none was read or embedded again. To build them anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.',
    );
    await scrollToTop(page.getByTestId('eval-results'));
    await shot('evaluate-rerun');
  });

  it('uses the keyword-search configuration as the app’s settings, after a confirmation that lists what changes', async () => {
    const apply = page.getByTestId('eval-apply');
    await scrollToTop(apply);
    const picker = apply.getByLabel('Configuration');
    const options = await picker.locator('option').allInnerTexts();
    const lexical = options.findIndex((o) => /heading:256 · k=4 · lexical/.test(o));
    expect(lexical).toBeGreaterThanOrEqual(0);
    await picker.selectOption({ index: lexical });
    await apply.getByRole('button', { name: 'Use these settings…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Use these settings?' });
    await dialog.waitFor();
    // Nothing is saved before the confirmation.
    expect(engine.settings.all()).toMatchObject({ searchMode: 'hybrid', k: 6 });
    const rows = await dialog.getByTestId('eval-apply-changes').locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual(['Passages per answer (k) 6 → 4', 'Search mode Keyword and meaning (hybrid) → Keyword only (lexical)']);
    expect(await dialog.getByTestId('eval-apply-not-applied').innerText()).toMatch(/keyword search uses none/);
    await page.mouse.move(2, 890);
    await page.screenshot({ path: path.join(SHOTS, 'evaluate-use-settings.png') });
    await dialog.getByRole('button', { name: 'Use these settings' }).click();
    await expect.poll(() => apply.getByTestId('eval-apply-saved').innerText()).toBe('Saved: Passages per answer (k) is now 4; Search mode is now Keyword only (lexical).');
    // Saved where every shell reads them: the engine's settings, and the contract's getSettings.
    expect(engine.settings.all()).toMatchObject({ searchMode: 'lexical', k: 4 });
    expect(await engine.call('getSettings', {})).toMatchObject({ searchMode: 'lexical', k: 4 });
    await shot('evaluate-use-settings-saved', apply);
  });

  it('runs repeats with a chat model that has gone away: its configurations are never "best" and say why values are missing; the drill-down shows six columns with each one’s repeats', async () => {
    await page.getByTestId('eval-back').click();
    await page.getByTestId('eval-setup').waitFor();
    await page.getByTestId('eval-chat-models').getByRole('checkbox', { name: 'qwen2.5:0.5b' }).check();
    await page.getByTestId('eval-chunkers').getByRole('checkbox', { name: /fixed:128\/25/ }).uncheck();
    await page.getByLabel('Passages per question (k)').fill('2, 4');
    await page.getByLabel('Repeats').fill('2');
    await expect.poll(() => page.getByTestId('eval-estimate').innerText()).toMatch(/8 configurations × 7 questions × 2 repeats = 112 answers/);
    // Uninstalled after the form listed it: every ask of it fails.
    ollama.removeModel('qwen2.5:0.5b');
    try {
      await page.getByTestId('eval-run').click();
      await page.getByTestId('eval-results').locator('tbody tr').first().waitFor({ timeout: 50_000 });
    } finally {
      ollama.addModel('qwen2.5:0.5b');
    }
    const table = page.getByTestId('eval-table');
    expect(await table.locator('tbody tr').count()).toBe(8);
    // Its configurations: the asks that reached the model failed (refusals made without it did not).
    const qwenRows = table.locator('tbody tr', { has: page.locator('[data-col="chatModel"]', { hasText: 'qwen2.5:0.5b' }) });
    expect(await qwenRows.count()).toBe(4);
    for (const errors of await qwenRows.locator('td[data-col="errors"]').allInnerTexts()) expect(Number(errors)).toBeGreaterThan(0);
    expect(await qwenRows.locator('td.eval-table__best').count()).toBe(0);
    const missing = qwenRows.first().locator('td[data-col="answerHasFact"]');
    expect(await missing.innerText()).toBe('—');
    expect(await missing.getAttribute('title')).toMatch(/question runs of this configuration failed, which may be why/);
    await page.getByTestId('eval-errors').waitFor();
    await scrollToTop(page.getByTestId('eval-results'));
    await table.evaluate((el) => el.scrollBy({ left: 420 }));
    await shot('evaluate-failed');
    await table.evaluate((el) => el.scrollBy({ left: -10_000 }));

    const drill = page.getByTestId('eval-drilldown');
    expect(await drill.getByTestId('eval-run-column').count()).toBe(6);
    expect(await drill.getByTestId('eval-columns-count').innerText()).toMatch(/Showing 6 of 8 configurations/);
    const repeats = await drill.getByTestId('eval-run-repeats').allInnerTexts();
    expect(repeats).toHaveLength(6);
    for (const r of repeats) expect(r).toMatch(/^(passed|not judged)|failed with an error/);
    expect(repeats.some((r) => /^passed \d\/2 repeats · \d failed with an error/.test(r))).toBe(true);
    const dead = drill.locator('[data-testid="eval-run-column"]', { hasText: 'qwen2.5:0.5b' }).first();
    expect(await dead.innerText()).not.toMatch(/✗ hit@/);
    expect(await dead.innerText()).toMatch(/not installed/i);
    await drill.getByRole('button', { name: 'Choose configurations…' }).click();
    await scrollToTop(drill);
    await shot('evaluate-drilldown-columns');
    await drill.getByTestId('eval-columns-all').click();
    expect(await drill.getByTestId('eval-run-column').count()).toBe(8);
  });

  it('charts the best 40 of a 54-configuration grid, with the whole list a click away', async () => {
    await page.getByTestId('eval-back').click();
    await page.getByTestId('eval-setup').waitFor();
    await page.getByTestId('eval-retrieval-only').check();
    for (const c of ['heading:256', 'recursive:1000/100', 'fixed:128/25']) await page.getByTestId('eval-chunkers').getByRole('checkbox', { name: new RegExp(c) }).check();
    for (const m of [/lexical/, /dense/i, /hybrid/i]) await page.getByTestId('eval-modes').getByRole('checkbox', { name: m }).check();
    await page.getByLabel('Passages per question (k)').fill('1, 2, 3, 4, 5, 6');
    await page.getByLabel('Repeats').fill('1');
    await expect.poll(() => page.getByTestId('eval-estimate').innerText()).toMatch(/54 configurations × 7 questions × 1 repeat = 378 searches/);
    await page.getByTestId('eval-run').click();
    await page.getByTestId('eval-results').locator('tbody tr').first().waitFor({ timeout: 50_000 });
    expect(await page.getByTestId('eval-table').locator('tbody tr').count()).toBe(54);

    const chart = page.getByTestId('eval-chart');
    await chart.getByTestId('eval-chart-metric').selectOption('mrr');
    expect(await chart.getByTestId('eval-chart-cap').innerText()).toMatch(/the 40 best of 54 configurations, best first/);
    const box = await chart.locator('canvas').boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(1000);
    expect(box?.height ?? 0).toBeLessThan(1500);
    const painted = () =>
      chart.locator('canvas').evaluate((el) => {
        const c = el as unknown as Canvas;
        const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        if (d) for (let i = 3; i < d.length; i += 4) if ((d[i] as number) > 0) n++;
        return n;
      });
    await expect.poll(painted, { timeout: 10_000 }).toBeGreaterThan(10_000);
    await scrollToTop(chart);
    await shot('evaluate-chart-many');
    await chart.getByTestId('eval-chart-all').click();
    expect(await chart.locator('canvas').count()).toBe(0);
    expect(await chart.getByTestId('eval-chart-values').locator('li').count()).toBe(54);
    await chart.getByTestId('eval-chart-all').click();
    await chart.locator('canvas').waitFor();

    const drill = page.getByTestId('eval-drilldown');
    expect(await drill.getByTestId('eval-run-column').count()).toBe(6);
    expect(await drill.getByTestId('eval-columns-all').count()).toBe(0);
  });

  it('warns, comparing with a report from before hit@n counted passages, that the two measured differently', async () => {
    // A report as an older Quire stored it: no metricsVersion, and no hit@3 (which came with passages).
    const newest = db.prepare('SELECT report FROM eval_reports ORDER BY id DESC LIMIT 1').pluck().get() as string;
    const old = JSON.parse(newest) as { metricsVersion?: number; run: { at: string }; configs: Array<{ metrics: Record<string, unknown> }> };
    delete old.metricsVersion;
    for (const c of old.configs) for (const key of ['hit3', 'hit5', 'factSent', 'sourceTokensP50']) delete c.metrics[key];
    old.run.at = '2026-11-30T09:00:00.000Z';
    db.prepare('INSERT INTO eval_reports (created_at, docs, question_set, configs, questions, ms, report) SELECT ?, docs, question_set, configs, questions, ms, ? FROM eval_reports ORDER BY id DESC LIMIT 1').run(old.run.at, JSON.stringify(old));
    const oldId = db.prepare('SELECT max(id) FROM eval_reports').pluck().get() as number;
    // The list, newest first, now holds it too; the run it was copied from is the newest.
    await page.getByTestId('eval-back').click();
    const newestRun = page.getByTestId('eval-reports').getByRole('button', { name: /54 configurations/ });
    await expect.poll(() => newestRun.count()).toBe(2);
    await newestRun.first().click();
    await page.getByTestId('eval-table').waitFor();
    await page.getByTestId('eval-compare-select').selectOption(String(oldId));
    const warning = page.getByTestId('eval-compare-metrics-version');
    await warning.waitFor();
    expect(await warning.innerText()).toBe(
      'The earlier evaluation and this one measured hit@n and MRR differently, so those numbers do not compare: the earlier evaluation looked for the fact in the chunk found at each rank, this one in the passage found at each rank (the chunk with its neighbours, as an answer is sent it).',
    );
    await scrollToTop(page.getByTestId('eval-compare'));
    await shot('evaluate-compare-metrics-version');
  });

  it('stops when Ollama goes away mid-run: the error and the report say how many runs were not done, and what ran is kept', async () => {
    await page.getByTestId('eval-back').click();
    await page.getByTestId('eval-setup').waitFor();
    for (const c of ['recursive:1000/100', 'fixed:128/25']) await page.getByTestId('eval-chunkers').getByRole('checkbox', { name: new RegExp(c) }).uncheck();
    for (const m of [/lexical/, /dense/i]) await page.getByTestId('eval-modes').getByRole('checkbox', { name: m }).uncheck();
    await expect.poll(() => page.getByTestId('eval-estimate').innerText()).toMatch(/6 configurations × 7 questions × 1 repeat = 42 searches/);
    // Ollama stops once the second configuration is under way: each hybrid search needs it for the question's vector.
    const stopWhenUnderWay = engine.onEvent((e) => {
      if (e.type === 'job.progress' && e.kind === 'eval' && e.progress.done === 10) void ollama.stop();
    });
    try {
      await page.getByTestId('eval-run').click();
      await page.getByTestId('eval-table').waitFor({ timeout: 50_000 });
    } finally {
      stopWhenUnderWay();
      await ollama.start();
    }
    const error = page.locator('.error-note[data-code="OLLAMA_UNREACHABLE"]');
    await error.waitFor();
    // The run's own sentence leads (what stopped it, what was not done); the general help follows.
    expect(await error.locator('p').first().innerText()).toMatch(/^The evaluation stopped because Ollama could not be reached at http:\/\/127\.0\.0\.1:\d+: \d+ of 42 question runs were not done \(“retrieval only · embeddinggemma · heading:256 · k=2 · hybrid · weighted:0\.2” ran \d of its 7\)\.$/);
    expect(await error.locator('p').nth(1).innerText()).toMatch(/^Ollama is not running or cannot be reached/);
    expect(await page.getByTestId('eval-table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('eval-warning').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^The evaluation stopped because Ollama could not be reached/)]));
    await shot('evaluate-ollama-gone');
    await scrollToTop(page.getByTestId('eval-results'));
    await shot('evaluate-ollama-gone-report');
  });

  it('Settings shows the search mode the evaluation set, and that the fusion changes nothing with it', async () => {
    await page.getByTestId('nav-settings').click();
    const mode = page.getByLabel('Search mode');
    await expect.poll(() => mode.inputValue()).toBe('lexical');
    expect(await page.getByTestId('fusion-unused').innerText()).toBe('Used only by hybrid search: with the search mode “Keyword only (lexical)” it changes nothing.');
    await shot('settings-search-mode', mode);
  });
});
