/**
 * Where a file or folder dropped on the window is on disk. Only the desktop app can say (its
 * preload asks Electron's webUtils); a browser never tells a page, so browser mode gets null.
 */
export function droppedPath(file: File | null | undefined, win: Window = window): string | null {
  const bridge = win.quire;
  if (!file || !bridge || typeof bridge.pathForFile !== 'function') return null;
  return bridge.pathForFile(file);
}
