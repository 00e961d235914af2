/**
 * What seals secrets at rest. The core never imports Electron: the desktop shell hands the engine
 * a box made from Electron's safeStorage (electron/main/secret-box.ts); the CLI, browser mode and
 * tests have none, or a fake.
 */
export interface SecretBox {
  /** Stored beside each sealed value, so a value is only offered to the kind of box that sealed it. */
  readonly id: string;
  /** For sentences: what seals the values, or why it would not protect them (e.g. "the macOS Keychain"). */
  readonly description: string;
  /**
   * false when sealing would use a key anyone can find (Linux with no keyring: safeStorage's
   * basic_text). Such a box seals nothing: obfuscation would look like protection and still give the
   * token to whoever copies the file. It may still open values sealed earlier.
   */
  readonly protects: boolean;
  /** Throws when the system refuses (the caller keeps what it had). */
  seal(plain: string): string;
  /** Throws when the value is damaged or was sealed by another key (another user, machine or keyring). */
  open(sealed: string): string;
}
