import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTING_KEYS, SETTINGS } from '../shared/settings';
import { runCli } from './support/cli-run';
import { tempDbPath } from './support/notes';
import { startStandin, type Standin } from './support/ollama-standin/server';

// `quire settings`: the app's settings from the command line, through the contract, checked by
// the settings table (shared/settings.ts) as the Settings view checks them.

let ollama: Standin;
let db: ReturnType<typeof tempDbPath>;
const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file, npm_lifecycle_event: '' });
const saved = async () => Object.fromEntries((JSON.parse((await quire(['settings', '--json'])).stdout) as { settings: Array<{ key: string; value: unknown }> }).settings.map((s) => [s.key, s.value]));

beforeAll(async () => {
  ollama = await startStandin();
});
afterAll(async () => {
  await ollama?.close();
});
beforeEach(() => {
  db = tempDbPath('quire-cli-settings-');
});
afterEach(() => db.dispose());

describe('quire settings', () => {
  it('lists every setting with its value and default, and how to change one', async () => {
    const r = await quire(['settings']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^setting +value +in the app$/);
    // Within 100 columns here: the default is said only where the value differs, and an unsaved host says it came from OLLAMA_HOST.
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    for (const key of SETTING_KEYS) expect(lines.some((l) => l.startsWith(`${key} `)), key).toBe(true);
    expect(r.stdout).toMatch(/^searchMode +hybrid +Search mode$/m);
    expect(r.stdout).toMatch(/^ollamaHost +http:\/\/127\.0\.0\.1:\d+ +Ollama host \(from OLLAMA_HOST\)$/m);
    expect(r.stdout).toContain('When no Ollama host is saved, OLLAMA_HOST (if set) is used.');
    expect(r.stdout).toMatch(/^k +6 +Passages per answer \(k\)$/m);
    expect(r.stdout).toContain('Change one: quire settings set <setting> <value>\n  e.g. quire settings set searchMode lexical\n');

    const json = JSON.parse((await quire(['settings', '--json'])).stdout) as { settings: Array<{ key: string; label: string; value: unknown; default: unknown; source: string }> };
    expect(json.settings.map((s) => s.key)).toEqual([...SETTING_KEYS]);
    expect(json.settings.find((s) => s.key === 'searchMode')).toEqual({ key: 'searchMode', label: SETTINGS.searchMode.label, value: 'hybrid', default: 'hybrid', source: 'default' });
    expect(json.settings.find((s) => s.key === 'ollamaHost')).toMatchObject({ value: ollama.url, source: 'environment' });
  });

  it('set saves what the settings table accepts, several pairs at once, and the list shows it beside the default', async () => {
    const r = await quire(['settings', 'set', 'searchMode', 'lexical', 'k', '3', 'fusion', 'weighted:0.15']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Saved: Search mode is now lexical.\nSaved: Passages per answer (k) is now 3.\nSaved: Hybrid fusion is now weighted:0.15.\n');
    expect(await saved()).toMatchObject({ searchMode: 'lexical', k: 3, fusion: 'weighted:0.15' });
    expect((await quire(['settings'])).stdout).toMatch(/^searchMode +lexical +Search mode \(default hybrid\)$/m);
  });

  it('a value the table refuses is its sentence on stderr, exit 1, and nothing of the command is saved', async () => {
    const r = await quire(['settings', 'set', 'k', '3', 'searchMode', 'keywords']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error (INVALID_ARGUMENT): Search mode takes lexical, dense or hybrid. The saved value is kept.\n');
    expect(await saved()).toMatchObject({ k: 6, searchMode: 'hybrid' });

    const big = await quire(['settings', 'set', 'k', '50', '--json']);
    expect(big.code).toBe(1);
    expect(JSON.parse(big.stdout)).toEqual({ error: { code: 'INVALID_ARGUMENT', message: 'Passages per answer (k) takes a whole number from 1 to 20. The saved value is kept.' } });
    const word = await quire(['settings', 'set', 'chunkTokens', 'big']);
    expect(word.code).toBe(1);
    expect(word.stderr).toBe('Error (INVALID_ARGUMENT): Chunk size (tokens) takes a whole number from 32 to 2,048. The saved value is kept.\n');
  });

  it('an unknown setting or a missing value is a usage error naming what is wrong', async () => {
    const unknown = await quire(['settings', 'set', 'mode', 'lexical']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Error \(INVALID_ARGUMENT\): There is no setting "mode"\. The settings are ollamaHost, .*searchMode.* \(quire settings lists them\)\.\n$/);
    const missing = await quire(['settings', 'set', 'k']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('Error (INVALID_ARGUMENT): settings set takes a setting and its value, e.g. quire settings set searchMode lexical.\n');
    const verb = await quire(['settings', 'show']);
    expect(verb.code).toBe(2);
  });

  it('a model is saved once Ollama lists it; one it lacks is refused with the installed ones named, unless --force', async () => {
    const ok = await quire(['settings', 'set', 'embedModel', 'nomic-embed-text']);
    expect(ok.code).toBe(0);
    const missing = await quire(['settings', 'set', 'embedModel', 'no-such-embedder']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error \(MODEL_NOT_FOUND\): .*no-such-embedder.*nomic-embed-text/);
    expect((await saved()).embedModel).toBe('nomic-embed-text');
    expect((await quire(['settings', 'set', 'embedModel', 'no-such-embedder', '--force'])).code).toBe(0);
    expect((await saved()).embedModel).toBe('no-such-embedder');
  });
});
