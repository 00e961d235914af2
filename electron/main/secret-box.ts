/**
 * The desktop app's SecretBox: Electron's safeStorage (the OS keychain: Keychain on macOS, DPAPI on
 * Windows, a Secret Service or KWallet keyring on Linux), handed to the engine, which seals saved
 * Ollama request header values with it. Made after ready: before it, Linux and Windows report no
 * encryption. Only main imports electron; this file takes its type, so it is tested with a fake.
 */
import type { SafeStorage } from 'electron';
import type { SecretBox } from '../core/engine';

export type SafeStorageApi = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

/** Stored beside each sealed value. */
export const SAFE_STORAGE_BOX = 'electron-safeStorage';

/**
 * A box that protects where the system really does. Linux's basic_text backend encrypts with a key
 * written into Chromium itself, so a copied database would open anywhere: then, as when no
 * encryption is available at all, the box says it does not protect, and the engine stores values as
 * they are and says so rather than pretending. Such a box still tries to open values sealed earlier
 * (they fail to open, by name, if the keyring that sealed them is gone).
 */
export function safeStorageBox(safeStorage: SafeStorageApi, platform: NodeJS.Platform): SecretBox {
  const available = safeStorage.isEncryptionAvailable();
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
  let description: string;
  let protects = available;
  if (!available) description = 'the system offers Quire no encryption here';
  else if (backend === 'basic_text' || backend === 'unknown') {
    protects = false;
    description = 'no system keyring was found, and Electron\'s fallback uses a key built into every copy';
  } else if (platform === 'darwin') description = 'the macOS Keychain';
  else if (platform === 'win32') description = 'Windows DPAPI (your Windows account)';
  else description = `the system keyring (${backend ?? platform})`;
  return {
    id: SAFE_STORAGE_BOX,
    description,
    protects,
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
