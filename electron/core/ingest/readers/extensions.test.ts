import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_EXTENSIONS, DOCUMENT_TYPES, READ_EXTENSIONS } from '../../../../shared/document-types';
import { skipReason } from '../../../../shared/skip-reasons';
import { READERS, readerFor, supportedExtensions } from './index';

const repo = path.resolve(import.meta.dirname, '../../../..');

describe('the file types Quire reads, declared once (shared/document-types.ts)', () => {
  it('choose the readers: each type by its own reader, for each of its extensions in any case, and nothing else', () => {
    for (const type of DOCUMENT_TYPES) {
      expect(READERS[type].name).toBe(type);
      for (const ext of DOCUMENT_EXTENSIONS[type]) {
        expect(readerFor(`notes/a${ext}`)).toBe(READERS[type]);
        expect(readerFor(`notes/A${ext.toUpperCase()}`)).toBe(READERS[type]);
      }
    }
    for (const other of ['a.bib', 'a.markdown.bak', 'a.doc', 'a', '.md']) expect(readerFor(other), other).toBeNull();
    expect(supportedExtensions()).toEqual([...READ_EXTENSIONS]);
  });

  it('are what the skip reason and the CLI say Quire reads, written from the table rather than by hand', () => {
    expect(skipReason('unsupported-type').match(/\.[a-z]+/g)).toEqual([...READ_EXTENSIONS]);
    // skip-reasons.ts used to spell the list out, and the CLI's help and import report twice more.
    for (const file of ['shared/skip-reasons.ts', 'electron/cli/usage.ts', 'electron/cli/commands/import.ts', 'electron/core/ingest/readers/markdown.ts', 'electron/core/ingest/readers/html.ts']) {
      expect(fs.readFileSync(path.join(repo, file), 'utf8'), file).not.toMatch(/\.markdown\b|\.htm\b|'\.docx'/);
    }
  });
});
