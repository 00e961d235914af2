/**
 * IPC channel names between the Electron main process and the preload, derived from the
 * contract's method names so no list is kept twice.
 */
export const CHANNEL_PREFIX = 'quire:';
export const EVENT_CHANNEL = 'quire:event';

export function ipcChannel(method: string): string {
  return `${CHANNEL_PREFIX}${method}`;
}
