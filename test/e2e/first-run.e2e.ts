import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/core/engine';
import type { Standin } from '../support/ollama-standin/server';
import { ROOT, useBrowserApp, type BrowserApp } from './browser-app';

/**
 * First run as a person meets it, from no Ollama to a first answer: real Chromium, browser mode,
 * the Ollama stand-in driven through each state (down, no models, only the chat model, ready). The
 * download goes through the page. Each state is screenshotted into test-results/first-run-*.png.
 */
const web = useBrowserApp({
  prefix: 'quire-first-run',
  // A computer with 16 GB and room on disk: the models Quire recommends are its defaults.
  engine: { sampleNotesDir: path.join(ROOT, 'resources/sample-notes'), machine: { memoryBytes: 16e9, freeDiskBytes: 200e9 } },
  notes: () => {},
  viewport: { width: 1280, height: 800 },
});
let page: Page;
let ollama: Standin;
let engine: Engine;
let app: BrowserApp['app'];
beforeAll(() => ({ page, ollama, engine, app } = web));
const shot = web.shot;

const INSTALLED = ['embeddinggemma', 'nomic-embed-text', 'llama3.2', 'qwen2.5:0.5b'];
const current = () => page.locator('.setup-steps [aria-current="step"]').getAttribute('data-step');
const ticked = () => page.locator('.setup-steps [data-done]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));

describe('first run', () => {
  it('Ollama down: step 1 says how to install and start it, with commands to copy and a way on without it', async () => {
    await ollama.stop();
    await page.goto(app.url);
    await page.getByTestId('setup-ollama').waitFor({ timeout: 20_000 });
    expect(await current()).toBe('ollama');
    expect(await ticked()).toEqual([]);
    await page.getByRole('button', { name: 'Copy ollama serve' }).waitFor();
    expect(await page.getByTestId('setup-headline').innerText()).toMatch(/^Ollama is not running at http:\/\/127\.0\.0\.1:\d+ .*or is not installed\.$/);
    await page.getByRole('button', { name: 'Continue with keyword search only' }).waitFor();
    await page.getByTestId('status-setup').waitFor();
    await shot('first-run-1-down');
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await shot('first-run-1-down-800x600');
      // Keyboard: Tab reaches Check again, Enter asks again.
      await page.getByTestId('check-again').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('setup-ollama').waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Ollama up without models: Check again moves to step 2, which recommends both with their sizes', async () => {
    for (const m of INSTALLED) ollama.removeModel(m);
    await ollama.start();
    await page.getByTestId('check-again').click();
    await page.getByTestId('setup-models').waitFor({ timeout: 20_000 });
    expect(await current()).toBe('models');
    expect(await ticked()).toEqual(['ollama']);
    expect(await page.getByTestId('model-embedding').innerText()).toMatch(/embeddinggemma\s+622 MB/);
    expect(await page.getByTestId('model-chat').innerText()).toMatch(/llama3\.2\s+2\.0 GB/);
    await page.getByRole('button', { name: 'Download both (2.6 GB)' }).waitFor();
    await shot('first-run-2-no-models');
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await shot('first-run-2-no-models-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('only the chat model: coming back to the window finds it, and the embedding model downloads with progress', async () => {
    ollama.addModel('llama3.2');
    // Installed from a terminal meanwhile; the window coming back to the front checks again.
    await page.evaluate("window.dispatchEvent(new FocusEvent('focus'))");
    await page.getByRole('heading', { name: 'Download one more model' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('model-chat').innerText()).toMatch(/llama3\.2(:latest)? is installed/);
    await shot('first-run-3-chat-only');

    // Slow enough to be seen: each line of the download's progress 400 ms apart.
    ollama.faults.streamDelayMs = 400;
    try {
      await page.getByRole('button', { name: 'Download embeddinggemma' }).click();
      const bytes = page.getByTestId('pull-bytes');
      await expect.poll(() => bytes.innerText(), { timeout: 20_000 }).toMatch(/^\d+ MB of 622 MB · \d+%$/);
      expect(Number(await page.getByRole('progressbar', { name: 'Downloading embeddinggemma' }).getAttribute('aria-valuemax'))).toBeGreaterThanOrEqual(621_875_417);
      await page.getByRole('button', { name: 'Cancel' }).waitFor();
      await shot('first-run-3-downloading');
    } finally {
      ollama.faults.streamDelayMs = 0;
    }
  });

  it('ready: the check runs at once, shows both results and ticks steps 1 to 3', async () => {
    await page.getByTestId('setup-check').waitFor({ timeout: 30_000 });
    await page.getByTestId('setup-next').waitFor({ timeout: 30_000 });
    expect(await current()).toBe('check');
    expect(await ticked()).toEqual(['ollama', 'models', 'check']);
    expect(await page.locator('[data-check="ok"]').count()).toBe(2);
    expect(await page.getByTestId('setup-check').innerText()).toMatch(/embeddinggemma turned a sentence into 768 numbers/);
    expect((await engine.call('getSettings', {})).embedModel).toMatch(/^embeddinggemma/);
    await shot('first-run-4-ready');
  });

  it('imports the sample notes and asks one of their questions', async () => {
    await page.getByTestId('setup-next').click();
    await page.getByTestId('setup-notes').waitFor();
    await page.getByRole('button', { name: 'Try the sample notes' }).click();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    const suggestion = page.getByTestId('suggestion').first();
    await suggestion.waitFor({ timeout: 10_000 });
    expect(await ticked()).toEqual(['ollama', 'models', 'check', 'notes']);
    await shot('first-run-5-notes', suggestion);
    const question = await suggestion.innerText();
    await suggestion.click();
    await page.getByTestId('answer').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('answer').first().innerText(), { timeout: 20_000 }).not.toBe('');
    expect(await page.getByTestId('first-run').count()).toBe(0);
    expect(question.length).toBeGreaterThan(5);
    await shot('first-run-6-first-answer');
  });
});
