/**
 * Why an import left a file out, in words: the import report's `skipped[].reason`, for every shell
 * (the Library's summary, `quire import`). Fragments, to follow a file's name or a count.
 */
import { extensionList } from './document-types';

const SKIP_REASONS: Record<string, string> = {
  'unsupported-type': `not a note format Quire reads (${extensionList(',')})`,
  'too-large': 'larger than the size limit for one file',
  'symlink-outside-root': 'a link pointing outside the imported folder',
  'symlink-loop': 'a link that loops back on itself',
  unreadable: 'could not be read (permissions or a vanished file)',
  'not-a-regular-file': 'not a file Quire can read (a named pipe, socket or device)',
  'unsupported-file-name': 'a name that is not valid UTF-8 (rename it to index it)',
  'no-text-layer': 'a PDF without a text layer (scanned pages or images)',
  'password-protected': 'a PDF protected by a password',
  'hidden-name': 'a hidden name (it starts with a dot), which notes apps do not show either: not read (rename it to index it)',
  // Said only of a document an older Quire imported; a new file under such a name is passed over (a hidden note with hidden-name).
  'passed-over-name': 'a hidden name or a Logseq copy of a page (logseq/bak, logseq/version-files), no longer read: taken out of the index (rename it to index it)',
};

export function skipReason(reason: string): string {
  return SKIP_REASONS[reason] ?? reason;
}
