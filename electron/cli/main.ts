#!/usr/bin/env node
import { main } from './run';

// Libraries that log with console.log must never corrupt --json output on stdout.
console.log = console.error;
console.info = console.error;
console.debug = console.error;
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
