/**
 * The open conversation survives a reload: its id is kept in the address (`#conversation=12`),
 * replaced in place so that opening conversations adds no history entries. (Browser mode's
 * `#token=` is read and removed before this runs: api/http-transport.ts.)
 */
const KEY = 'conversation';

export function readOpenConversation(win: Window = window): number | null {
  const value = new URLSearchParams(win.location.hash.replace(/^#/, '')).get(KEY);
  const id = value === null ? NaN : Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function rememberOpenConversation(id: number | null, win: Window = window): void {
  const params = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  if (id === null) params.delete(KEY);
  else params.set(KEY, String(id));
  const hash = params.toString();
  win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}${hash ? `#${hash}` : ''}`);
}
