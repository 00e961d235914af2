import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repo = fileURLToPath(new URL('.', import.meta.url));

/**
 * The renderer build: one static bundle that Electron serves from app:// and browser mode serves
 * over loopback HTTP. Relative base so both can mount it anywhere. During `vite dev`, set
 * QUIRE_WEB_URL (the browser-mode server) to proxy /api to it.
 */
export default defineConfig({
  root: `${repo}renderer`,
  base: './',
  plugins: [react()],
  build: {
    outDir: `${repo}dist/renderer`,
    emptyOutDir: true,
    // No inline polyfill script: the page must run under a strict CSP.
    modulePreload: { polyfill: false },
  },
  server: process.env.QUIRE_WEB_URL ? { proxy: { '/api': { target: process.env.QUIRE_WEB_URL, changeOrigin: false } } } : {},
});
