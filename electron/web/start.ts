/**
 * `npm start`. The desktop window (Electron) arrives with the shell milestone; until then Quire
 * starts in browser mode: the same interface and engine, served on 127.0.0.1 with a token.
 */
process.stderr.write('Quire: the desktop window is not built yet, so Quire opens in your browser instead (browser mode).\n');
await import('./main');
export {};
