/**
 * IPC channel names between the Electron main process and the preload, derived from the
 * contract's method names so no list is kept twice. Here rather than in shared/ because the
 * renderer never sees them, and rather than in either shell because shells do not import each
 * other; plain strings, so the sandboxed preload bundle stays free of Node.
 */
export const CHANNEL_PREFIX = 'quire:';
export const EVENT_CHANNEL = 'quire:event';

export function ipcChannel(method: string): string {
  return `${CHANNEL_PREFIX}${method}`;
}
