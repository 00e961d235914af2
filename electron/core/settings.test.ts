import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError, type QuireErrorShape } from '../../shared/errors';
import { openDatabase, type Db } from './db/open';
import { SettingsStore } from './settings';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const failingHook = () => {
  throw new QuireError('WRITE_FAILED', 'database is locked (simulated by settings.test.ts)');
};

describe('a change hook that throws after the settings were stored', () => {
  it('does not turn the save into a failure; the hook’s error is reported on its own', () => {
    const failures: QuireErrorShape[] = [];
    const store = new SettingsStore(db, {}, failingHook, (e) => failures.push(e));
    expect(store.set({ k: 3, embedModel: 'nomic-embed-text' })).toMatchObject({ k: 3, embedModel: 'nomic-embed-text' });
    expect(new SettingsStore(db).get('k')).toBe(3);
    expect(failures).toEqual([{ code: 'WRITE_FAILED', message: 'database is locked (simulated by settings.test.ts)' }]);
  });

  it('is a process warning when nobody else is told', async () => {
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    expect(new SettingsStore(db, {}, failingHook).set({ k: 4 }).k).toBe(4);
    expect((await warned).message).toMatch(/Settings were saved, but reacting to the change failed: database is locked \(simulated by settings.test.ts\)/);
  });

  it('a patch refused by validation is still an error, and the hook is not called', () => {
    let called = false;
    const store = new SettingsStore(db, {}, () => (called = true), () => {});
    expect(() => store.set({ k: -1 })).toThrow(QuireError);
    expect(called).toBe(false);
  });
});

describe('saved headers that cannot be opened here', () => {
  it('are kept through a patch that does not name them, and count towards the limit of headers', () => {
    const sealedElsewhere = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, { sealed: 'c2VhbGVk', by: 'electron-safeStorage' }]));
    db.prepare("INSERT INTO settings (key, value) VALUES ('ollama_headers', ?)").run(JSON.stringify(sealedElsewhere));
    const store = new SettingsStore(db, {});
    expect(store.headers()).toEqual({});
    expect(store.unreadableHeaders().map((h) => h.name)).toHaveLength(20);
    expect(() => store.set({ ollamaHeaders: { 'X-New': 'v' } })).toThrow(/at most 20 headers\. The saved value is kept\./);
    store.set({ ollamaHeaders: { 'X-H0': null, 'X-New': 'v' } });
    const stored = JSON.parse(db.prepare("SELECT value FROM settings WHERE key = 'ollama_headers'").pluck().get() as string) as Record<string, unknown>;
    expect(Object.keys(stored)).toHaveLength(20);
    expect(stored['X-H1']).toEqual({ sealed: 'c2VhbGVk', by: 'electron-safeStorage' });
    expect(store.headers()).toEqual({ 'X-New': 'v' });
  });
});

describe('the search mode', () => {
  it('is hybrid until changed, and keeps lexical or dense once saved', () => {
    const store = new SettingsStore(db, {});
    expect(store.get('searchMode')).toBe('hybrid');
    expect(store.set({ searchMode: 'lexical' }).searchMode).toBe('lexical');
    expect(new SettingsStore(db, {}).get('searchMode')).toBe('lexical');
    expect(store.set({ searchMode: 'dense' }).searchMode).toBe('dense');
    expect(store.view().searchMode).toBe('dense');
  });

  it('refuses any other mode with a sentence naming the setting and the modes, keeping the saved one', () => {
    const store = new SettingsStore(db, {});
    store.set({ searchMode: 'lexical' });
    expect(() => store.set({ searchMode: 'keywords' })).toThrow('Search mode takes lexical, dense or hybrid. The saved value is kept.');
    expect(store.get('searchMode')).toBe('lexical');
  });

  it('reads a stored value it does not know (edited by hand, or from a newer Quire) as the default', () => {
    db.prepare("INSERT INTO settings (key, value) VALUES ('search_mode', 'semantic')").run();
    expect(new SettingsStore(db, {}).get('searchMode')).toBe('hybrid');
  });
});
