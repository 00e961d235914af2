#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { usage } from './usage';

// Libraries that log with console.log must never corrupt --json output on stdout.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
  // Answered before the engine, the database driver and the readers are loaded: help is instant.
  process.stdout.write(`${usage()}\n`);
} else {
  const { main } = await import('./run');
  // Built (dist/cli/quire.mjs), the parse worker is a file beside this one; from source it is not.
  const worker = new URL('./parse-worker.mjs', import.meta.url);
  process.exitCode = await main(argv, existsSync(fileURLToPath(worker)) ? { parseWorker: worker } : {});
}
