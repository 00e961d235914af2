import { parentPort } from 'node:worker_threads';
import { toErrorShape } from '../../../../shared/errors';
import { loadReaders } from '../readers/index';
import { parseFile, type ParseRequest } from './parse-file';

/**
 * The parse worker: one file at a time, off the main thread, under the memory limit its pool set.
 * A file that takes too long or too much memory is the pool's to end; this side only answers.
 */
parentPort!.on('message', (msg: { id: number; req: ParseRequest }) => {
  parseFile(msg.req).then(
    (parsed) => parentPort!.postMessage({ id: msg.id, parsed }),
    (e: unknown) => parentPort!.postMessage({ id: msg.id, error: toErrorShape(e) }),
  );
});

// Warm: every reader's parser, and the tokenizer (loaded by a first parse). The pool starts a
// file's clock only after this, so a slow start is never charged to a file.
void loadReaders()
  .then(() => parseFile({ relPath: 'warm-up.md', bytes: new TextEncoder().encode('# Warm up\n\nText.\n'), chunker: { kind: 'heading', maxTokens: 256 } }))
  .catch(() => {})
  .then(() => parentPort!.postMessage({ ready: true }));
