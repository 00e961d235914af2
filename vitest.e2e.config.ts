import { defineConfig } from 'vitest/config';

/** End-to-end: real Chromium against browser mode and the Ollama stand-in. `npm run test:e2e`. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
