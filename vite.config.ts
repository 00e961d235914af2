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
    rolldownOptions: {
      output: {
        // The libraries in chunks of their own, so no chunk passes Vite's 500 kB warning (a person
        // starting Quire is shown no build advice) and an app update that changes only Quire's
        // code leaves the libraries' files as they were.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'markdown', test: /node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/](?!chart\.js[\\/]|@kurkle[\\/])/ },
          ],
        },
      },
    },
  },
  server: process.env.QUIRE_WEB_URL ? { proxy: { '/api': { target: process.env.QUIRE_WEB_URL, changeOrigin: false } } } : {},
});
