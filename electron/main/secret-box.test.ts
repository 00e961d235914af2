import type { SafeStorage } from 'electron';
import { describe, expect, it } from 'vitest';
import { SAFE_STORAGE_BOX, safeStorageBox, type SafeStorageApi } from './secret-box';

/** safeStorage as Electron's types declare it, faked: "encrypts" by reversing bytes and marking them, and refuses what it did not seal. */
function fakeSafeStorage(o: { available?: boolean; backend?: ReturnType<SafeStorage['getSelectedStorageBackend']> } = {}): SafeStorageApi & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    isEncryptionAvailable: () => o.available ?? true,
    getSelectedStorageBackend: () => {
      calls.push('getSelectedStorageBackend');
      return o.backend ?? 'gnome_libsecret';
    },
    encryptString: (plain: string) => {
      calls.push('encryptString');
      return Buffer.concat([Buffer.from('v11'), Buffer.from(plain, 'utf8').reverse()]);
    },
    decryptString: (encrypted: Buffer) => {
      calls.push('decryptString');
      if (encrypted.subarray(0, 3).toString() !== 'v11') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(encrypted.subarray(3)).reverse().toString('utf8');
    },
  };
}

describe('safeStorageBox', () => {
  it('seals through encryptString as base64 text and opens through decryptString', () => {
    const s = fakeSafeStorage();
    const box = safeStorageBox(s, 'darwin');
    expect(box).toMatchObject({ id: SAFE_STORAGE_BOX, protects: true, description: 'the macOS Keychain' });
    const sealed = box.seal('Bearer s3cret');
    expect(sealed).not.toContain('s3cret');
    expect(Buffer.from(sealed, 'base64').subarray(0, 3).toString()).toBe('v11');
    expect(box.open(sealed)).toBe('Bearer s3cret');
    expect(s.calls).toEqual(['encryptString', 'decryptString']); // not Linux: no backend asked
    expect(() => box.open(Buffer.from('damaged').toString('base64'))).toThrow(/decrypting/);
  });

  it('names Windows DPAPI and a Linux keyring by its backend', () => {
    expect(safeStorageBox(fakeSafeStorage(), 'win32')).toMatchObject({ protects: true, description: 'Windows DPAPI (your Windows account)' });
    expect(safeStorageBox(fakeSafeStorage({ backend: 'kwallet6' }), 'linux')).toMatchObject({ protects: true, description: 'the system keyring (kwallet6)' });
  });

  it('Linux with only basic_text (a key built into every copy) does not protect; nor does a system without encryption', () => {
    const basic = safeStorageBox(fakeSafeStorage({ backend: 'basic_text' }), 'linux');
    expect(basic.protects).toBe(false);
    expect(basic.description).toMatch(/no system keyring was found/);
    expect(safeStorageBox(fakeSafeStorage({ backend: 'unknown' }), 'linux').protects).toBe(false);
    const none = safeStorageBox(fakeSafeStorage({ available: false }), 'darwin');
    expect(none).toMatchObject({ protects: false, description: 'the system offers Quire no encryption here' });
  });
});
