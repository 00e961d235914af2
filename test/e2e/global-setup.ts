import path from 'node:path';

/**
 * Builds the renderer once before any e2e file runs, so every file tests the renderer as it is now
 * (never a stale dist/renderer left from an earlier build).
 */
export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
