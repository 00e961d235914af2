import crypto from 'node:crypto';
import type { SecretBox } from '../../electron/core/engine';

/**
 * A SecretBox for tests, standing in for Electron's safeStorage: AES-256-GCM under a key that lives
 * only in this object (as the OS keychain's would), so a value sealed by one box cannot be opened
 * by another, and a damaged value fails to open instead of opening to garbage.
 */
export class FakeSecretBox implements SecretBox {
  readonly id: string = 'electron-safeStorage';
  readonly description: string;
  readonly protects: boolean;
  /** When true, seal throws as a keychain that refuses would. */
  refuse = false;
  /** When true, open throws as a keychain whose prompt the person denied would. */
  refuseOpen = false;
  sealed = 0;
  opened = 0;
  private readonly key = crypto.randomBytes(32);

  constructor(o: { description?: string; protects?: boolean } = {}) {
    this.description = o.description ?? 'the test keychain';
    this.protects = o.protects ?? true;
  }

  seal(plain: string): string {
    if (this.refuse) throw new Error('the keychain refused');
    this.sealed++;
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    if (this.refuseOpen) throw new Error('the keychain refused');
    this.opened++;
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
