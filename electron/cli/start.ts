/**
 * `npm start`. The desktop window arrives with the shell issue; until then this says so plainly
 * and shows what works today: the quire command line over the same engine.
 */
process.stdout.write(
  [
    'Quire: the desktop window is not built yet (it arrives in a later release).',
    'What works today is the command line over the same engine:',
    '',
    '  npm run quire -- import ~/notes          index a folder of Markdown/text notes',
    '  npm run quire -- search "your question"  ranked passages with file, heading and lines',
    '  npm run quire -- status                  what is indexed; whether Ollama is running',
    '  npm run quire -- --help                  every command',
    '',
  ].join('\n'),
);
