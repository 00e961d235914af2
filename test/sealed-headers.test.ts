import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine, openDatabase, type Engine } from '../electron/core/engine';
import { main } from '../electron/cli/run';
import { REOPEN_AFTER_MS } from '../electron/core/settings';
import { useGuardedOllama } from './support/guarded-ollama';
import { FakeSecretBox } from './support/fake-secret-box';
import { tempDbPath } from './support/notes';

/**
 * Saved Ollama request header values sealed at rest by the desktop app's SecretBox (a fake here:
 * AES-GCM under a key only the box holds), behind a proxy that wants the header: the file never
 * holds the value once sealed, the value still reaches the proxy, a plain value from before is
 * sealed when the app opens the database, and a shell that cannot open a sealed value (the CLI) or a
 * damaged one says so by name and goes on without it.
 */
const SECRET = 'Bearer team-s3cret-9d2e';
const TEAM = 'docs-team-4b7a';

const proxy = useGuardedOllama(SECRET);
let dbFile: ReturnType<typeof tempDbPath>;
const engines: Engine[] = [];

beforeEach(() => {
  dbFile = tempDbPath('quire-sealed-');
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  dbFile.dispose();
});

function engine(secretBox?: FakeSecretBox, env: Record<string, string> = {}): Engine {
  const e = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: proxy.url, ...env }, parseWorker: null, ...(secretBox ? { secretBox } : {}) });
  engines.push(e);
  return e;
}

async function closeAll(): Promise<void> {
  for (const e of engines.splice(0)) await e.close();
}

/** The settings row as stored, read through a connection of its own. */
function storedRow(): string {
  const db = openDatabase(dbFile.file);
  try {
    return (db.prepare("SELECT value FROM settings WHERE key = 'ollama_headers'").pluck().get() as string | undefined) ?? '';
  } finally {
    db.close();
  }
}

/** Every byte of the database as a copy of it would hold them (file, WAL). */
function fileBytes(): string {
  return ['', '-wal'].map((s) => (fs.existsSync(dbFile.file + s) ? fs.readFileSync(dbFile.file + s).toString('latin1') : '')).join('');
}

async function connected(e: Engine): Promise<boolean> {
  return (await e.call('status', {})).ollama.connected;
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: { OLLAMA_HOST: proxy.url, QUIRE_DB: dbFile.file, ...env } });
  expect(out + err).not.toContain('s3cret');
  return { code, out, err };
}

describe('header values sealed at rest by the desktop app’s box', () => {
  it('a saved value is sealed in the row and absent from the file, and still reaches the proxy; Settings says it is encrypted', async () => {
    const box = new FakeSecretBox({ description: 'the test keychain' });
    const e = engine(box);
    const saved = await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET, 'X-Team': TEAM } });
    expect(saved.ollamaHeaders).toEqual([
      { name: 'Authorization', source: 'settings' },
      { name: 'X-Team', source: 'settings' },
    ]);
    expect(saved.ollamaHeaderStorage).toEqual({ sealed: true, detail: 'Saved values are encrypted with the test keychain.' });

    const row = storedRow();
    expect(row).not.toContain('s3cret');
    expect(row).not.toContain(TEAM);
    expect(JSON.parse(row)).toEqual({ Authorization: { sealed: expect.any(String), by: box.id }, 'X-Team': { sealed: expect.any(String), by: box.id } });
    expect(fileBytes()).not.toContain('s3cret');

    expect(await connected(e)).toBe(true);
    expect(proxy.refused).toEqual([]);
    expect(JSON.stringify(await e.call('getSettings', {}))).not.toContain('s3cret');

    // Round trip across a restart of the app (the same keychain).
    await closeAll();
    expect(fileBytes()).not.toContain('s3cret');
    const again = engine(box);
    expect(await connected(again)).toBe(true);
    expect(proxy.refused).toEqual([]);
    // Opened once per stored text, not on every request.
    const opened = box.opened;
    await connected(again);
    expect(box.opened).toBe(opened);
  });

  it('a plain value from before is sealed when the app opens the database, without losing it; the old bytes leave the file', async () => {
    const plain = engine(); // no box: browser mode or the CLI's engine, or an older Quire
    const view = await plain.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect(view.ollamaHeaderStorage.sealed).toBe(false);
    expect(view.ollamaHeaderStorage.detail).toMatch(/stored unencrypted in Quire's database \(no system keychain is used here.*anyone with a copy of the file can read them\. Prefer QUIRE_OLLAMA_HEADERS or --ollama-header/);
    await closeAll();
    expect(storedRow()).toContain('s3cret'); // what the box is for: the file holds it now
    expect(fileBytes()).toContain('s3cret');

    const box = new FakeSecretBox();
    const app = engine(box);
    expect(box.sealed).toBe(1);
    expect(storedRow()).not.toContain('s3cret');
    expect(fileBytes()).not.toContain('s3cret');
    expect(await connected(app)).toBe(true);
    expect(proxy.refused).toEqual([]);
    await closeAll();
    expect(fileBytes()).not.toContain('s3cret');
  });

  it('a keychain that refuses to seal: the plain value stays and is still sent, the save of a new value is refused without quoting it', async () => {
    await engine().call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    await closeAll();
    const box = new FakeSecretBox();
    box.refuse = true;
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    const app = engine(box);
    const warning = await warned;
    expect(warning.message).toMatch(/could not be sealed/);
    expect(warning.message).not.toContain('s3cret');
    expect(storedRow()).toContain('s3cret');
    expect(await connected(app)).toBe(true);
    expect((await app.call('getSettings', {})).ollamaHeaderStorage.detail).toMatch(/One saved value could not be sealed yet and is stored unencrypted/);

    const r = await app.dispatch('setSettings', { ollamaHeaders: { 'X-Team': `${TEAM}-s3cret` } });
    expect(r).toMatchObject({ ok: false, error: { code: 'WRITE_FAILED', message: expect.stringContaining('were not saved: the test keychain refused') } });
    if (!r.ok) expect(r.error.message).not.toContain('s3cret');
    expect(JSON.parse(storedRow())).toEqual({ Authorization: SECRET });
  });

  it('a keychain that refuses to seal does not stop a saved header being removed (nothing new needs sealing)', async () => {
    await engine().call('setSettings', { ollamaHeaders: { Authorization: SECRET, 'X-Team': TEAM } });
    await closeAll();
    const box = new FakeSecretBox();
    box.refuse = true;
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    const app = engine(box);
    await warned;
    // A token that leaked is removed at once, keychain or not; the other value stays as it was.
    await app.call('setSettings', { ollamaHeaders: { Authorization: null } });
    expect(JSON.parse(storedRow())).toEqual({ 'X-Team': TEAM });
    expect(fileBytes()).not.toContain('s3cret');
    // A new value still needs the keychain: refused, and nothing stored.
    const r = await app.dispatch('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect(r).toMatchObject({ ok: false, error: { code: 'WRITE_FAILED' } });
    expect(JSON.parse(storedRow())).toEqual({ 'X-Team': TEAM });
  });

  it('a box that does not really protect (Linux basic_text) seals nothing and says so', async () => {
    const box = new FakeSecretBox({ protects: false, description: 'no system keyring was found' });
    const e = engine(box);
    const view = await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect(box.sealed).toBe(0);
    expect(JSON.parse(storedRow())).toEqual({ Authorization: SECRET });
    expect(view.ollamaHeaderStorage).toMatchObject({ sealed: false, detail: expect.stringContaining('stored unencrypted in Quire\'s database (no system keyring was found)') });
    expect(await connected(e)).toBe(true);
  });

  it('a damaged sealed value: a clear sentence naming the header, the other headers still sent, and it can be saved again', async () => {
    const box = new FakeSecretBox();
    const e = engine(box, {});
    await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET, 'X-Team': TEAM } });
    await closeAll();
    const db = openDatabase(dbFile.file);
    const stored = JSON.parse(storedRow()) as Record<string, { sealed: string; by: string }>;
    const bytes = Buffer.from(stored.Authorization!.sealed, 'base64');
    bytes[bytes.length - 1]! ^= 0xff;
    stored.Authorization!.sealed = bytes.toString('base64');
    db.prepare("UPDATE settings SET value = ? WHERE key = 'ollama_headers'").run(JSON.stringify(stored));
    db.close();

    const app = engine(box);
    const view = await app.call('getSettings', {});
    expect(view.ollamaHeaders).toEqual([
      { name: 'X-Team', source: 'settings' },
      {
        name: 'Authorization',
        source: 'settings',
        unreadable:
          'The saved value of the Ollama request header Authorization could not be opened with the test keychain: it is damaged, was sealed by another user, computer or keyring, or the keychain refused; requests go without it. Pass it with --ollama-header "Authorization: …" or QUIRE_OLLAMA_HEADERS, or save it again in Settings.',
      },
    ]);
    const status = await app.call('status', {});
    expect(status.ollama).toMatchObject({ connected: false, headers: ['X-Team'] });
    expect(status.ollama.error).toMatch(/401/);
    // Nothing else breaks: another setting saves, and the damaged value is kept until replaced.
    expect((await app.call('setSettings', { k: 4 })).k).toBe(4);
    expect(JSON.parse(storedRow()).Authorization.sealed).toBe(stored.Authorization!.sealed);

    const fixed = await app.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect(fixed.ollamaHeaders.every((h) => h.unreadable === undefined)).toBe(true);
    expect(await connected(app)).toBe(true);
    expect(storedRow()).not.toContain('s3cret');
  });

  it('a keychain that refused to open a value is asked again a minute later, not only after a restart, and not on every request', async () => {
    const box = new FakeSecretBox();
    const e = engine(box, {});
    await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    await closeAll();
    const openedBefore = box.opened;
    box.refuseOpen = true;
    const clock = vi.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(5_000_000);
      const app = engine(box);
      expect((await app.call('getSettings', {})).ollamaHeaders).toMatchObject([{ name: 'Authorization', unreadable: expect.stringContaining('the keychain refused') }]);
      // The person allows the keychain now; within the minute the refusal stands (no prompt per request).
      box.refuseOpen = false;
      clock.mockReturnValue(5_000_000 + REOPEN_AFTER_MS - 1);
      expect((await app.call('getSettings', {})).ollamaHeaders[0]!.unreadable).toBeDefined();
      expect(box.opened).toBe(openedBefore);
      clock.mockReturnValue(5_000_000 + REOPEN_AFTER_MS);
      expect((await app.call('getSettings', {})).ollamaHeaders).toEqual([{ name: 'Authorization', source: 'settings' }]);
      expect(box.opened).toBe(openedBefore + 1);
      clock.mockRestore();
      expect(await connected(app)).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });

  it('the CLI (no box): says the saved header is sealed by the desktop app and how to pass it, runs without it, and the flag or environment stands in', async () => {
    const box = new FakeSecretBox();
    await engine(box).call('setSettings', { ollamaHeaders: { Authorization: SECRET, 'X-Team': TEAM } });
    await closeAll();

    const bare = await cli(['status']);
    expect(bare.code).toBe(0);
    expect(bare.err).toContain(
      'The saved value of the Ollama request header Authorization is sealed by the desktop app\'s keychain, which only the desktop app can open; requests go without it. Pass it with --ollama-header "Authorization: …" or QUIRE_OLLAMA_HEADERS, or save it again in Settings.',
    );
    expect(bare.out).toMatch(/not connected .*401/);
    expect(bare.out).toContain('not sent: Authorization');
    expect(bare.out).toContain('saved headers: Saved values are stored unencrypted');
    // Keyword work needs no header at all.
    expect((await cli(['doctor'])).code).toBe(0);

    for (const run of [
      () => cli(['status', '--json', '--ollama-header', `Authorization: ${SECRET}`]),
      () => cli(['status', '--json'], { QUIRE_OLLAMA_HEADERS: JSON.stringify({ Authorization: SECRET }) }),
    ]) {
      proxy.refused.length = 0;
      const r = await run();
      expect(r.code).toBe(0);
      // Only the header nothing stands in for is still named.
      expect(r.err).not.toContain('header Authorization is sealed');
      expect(r.err).toContain('header X-Team is sealed by the desktop app');
      const status = JSON.parse(r.out);
      expect(status.ollama).toMatchObject({ connected: true, headers: expect.arrayContaining(['Authorization']) });
      expect(status.savedHeaders).toMatchObject({ sealed: false, unreadable: ['Authorization', 'X-Team'] });
      expect(proxy.refused).toEqual([]);
    }

    // The app's keychain still opens them afterwards: the CLI changed nothing.
    expect(await connected(engine(box))).toBe(true);
  });

  it('a value sealed by another keychain (another user or machine) cannot be opened and is named, not sent', async () => {
    await engine(new FakeSecretBox()).call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    await closeAll();
    const elsewhere = engine(new FakeSecretBox({ description: 'the other keychain' }));
    const [h] = (await elsewhere.call('getSettings', {})).ollamaHeaders;
    expect(h).toMatchObject({ name: 'Authorization', unreadable: expect.stringContaining('could not be opened with the other keychain') });
    expect(await connected(elsewhere)).toBe(false);
  });
});
