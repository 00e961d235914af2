import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * How a Logseq graph writes a page's name as its file's name, so a page titled by its file name
 * reads as Logseq shows it. Logseq's docs ("Filename format", logseq/docs) and its graph parser
 * (graph_parser/extract.cljs, title-parsing) define two formats, chosen per graph by
 * `:file/name-format` in `logseq/config.edn`:
 *
 * - `:triple-lowbar`, the default for graphs made since Logseq 0.8.9: `___` stands for `/`
 *   (`a___b.md` is the page "a/b"), other characters a file name cannot hold are percent-encoded
 *   (`What%3F.md` is "What?"), and empty namespace parts are dropped.
 * - `:legacy`, a graph whose config names no format (made before 0.8.9): the whole name is
 *   percent-decoded (`a%2Fb.md` is "a/b"), and, for files of Logseq's earliest versions, a `.`
 *   stands for `/` too (`a.b.md` is "a/b"). Logseq wrote a `title::` property into any page whose
 *   name it encoded, which Quire reads first (readers/front-matter.ts); the file name is the rule
 *   for the pages without one.
 *
 * A page whose name parses as a date (`2024_01_15`, `2024-01-15`: a journal's file) is then named
 * as Logseq shows a journal, by the graph's `:journal/page-title-format` (default `MMM do, yyyy`:
 * "Jan 15th, 2024"; graph_parser date_time_util.cljs, convert-page-if-journal).
 *
 * A folder is a Logseq graph when it, or the folder holding it (a graph's `pages/` imported alone),
 * has `logseq/config.edn`. Other folders' file names are titles as they stand.
 */
export type LogseqNameFormat = 'triple-lowbar' | 'legacy';

/** What of a graph's config.edn names its pages. */
export interface LogseqGraph {
  names: LogseqNameFormat;
  /** `:journal/page-title-format`: a cljs-time pattern (`MMM do, yyyy`, `EEE, MM/dd/yyyy`, `yyyy年MM月dd日`). */
  journalTitle: string;
}

const DEFAULT_JOURNAL_TITLE = 'MMM do, yyyy';

/** The graph's naming; null when the folder is not in a Logseq graph. */
export async function logseqGraph(root: string): Promise<LogseqGraph | null> {
  for (const dir of [root, path.dirname(root)]) {
    let config: string;
    try {
      config = await fs.readFile(path.join(dir, 'logseq', 'config.edn'), 'utf8');
    } catch {
      continue;
    }
    // EDN comments run from `;` to the end of the line; the stock config holds commented examples.
    const edn = config.replace(/;[^\n]*/g, '');
    const format = /:file\/name-format\s+:([\w-]+)/.exec(edn)?.[1];
    const journalTitle = /:journal\/page-title-format\s+"([^"\n]+)"/.exec(edn)?.[1]?.trim();
    return { names: format === 'triple-lowbar' ? 'triple-lowbar' : 'legacy', journalTitle: journalTitle || DEFAULT_JOURNAL_TITLE };
  }
  return null;
}

/** What the graph's naming adds to its documents' chunker recipe: changed, the pages are named and cut again. */
export function logseqRecipe(graph: LogseqGraph): string {
  return `+logseq-names:${graph.names}+journal-title:${graph.journalTitle}`;
}

/** Logseq's name for a page titled by its file (its file name without the extension): a journal's is its date. */
export function logseqPageTitle(fileBody: string, graph: LogseqGraph): string {
  const name = logseqPageName(fileBody, graph.names);
  const date = JOURNAL_NAME.exec(name);
  if (!date) return name;
  const [year, month, day] = [Number(date[1]), Number(date[3]), Number(date[4])];
  const when = new Date(Date.UTC(year, month - 1, day));
  // 2024_02_30 is no day (Date would roll it into March): a name like any other.
  if (when.getUTCFullYear() !== year || when.getUTCMonth() !== month - 1 || when.getUTCDate() !== day) return name;
  return formatDate(when, graph.journalTitle);
}

/** A journal's page name as Logseq's own file names write it (`yyyy_MM_dd`, or `yyyy-MM-dd`). */
const JOURNAL_NAME = /^(\d{4})([-_])(\d{1,2})\2(\d{1,2})$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A date written by a cljs-time pattern, as Logseq writes a journal's title (in English, as
 * cljs-time does): the fields its title formats use, `do` for an ordinal day ("15th"), and text in
 * single quotes or any other character as written.
 */
function formatDate(date: Date, pattern: string): string {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  const two = (n: number) => String(n).padStart(2, '0');
  return pattern.replace(/'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|do|dd|d|EEEE|EEE|EE|E/g, (token, quoted?: string) => {
    if (quoted !== undefined) return quoted === '' ? "'" : quoted;
    switch (token) {
      case 'yyyy': return String(y);
      case 'yy': return two(y % 100);
      case 'MMMM': return MONTHS[m]!;
      case 'MMM': return MONTHS[m]!.slice(0, 3);
      case 'MM': return two(m + 1);
      case 'M': return String(m + 1);
      case 'do': return `${d}${ordinalSuffix(d)}`;
      case 'dd': return two(d);
      case 'd': return String(d);
      case 'EEEE': return WEEKDAYS[date.getUTCDay()]!;
      default: return WEEKDAYS[date.getUTCDay()]!.slice(0, 3);
    }
  });
}

function ordinalSuffix(day: number): string {
  if (day >= 11 && day <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

/** Logseq's page name for a file's name without its extension. */
export function logseqPageName(fileBody: string, format: LogseqNameFormat): string {
  if (format === 'legacy') {
    const title = fileBody.replaceAll('.', '/');
    try {
      return decodeURIComponent(title);
    } catch {
      return title;
    }
  }
  const decoded = fileBody.replaceAll('___', '/').replace(/%[0-9a-f]{2}/gi, (token) => {
    // Each escape alone: one byte of a longer UTF-8 sequence does not decode, and stays as written.
    try {
      return decodeURIComponent(token);
    } catch {
      return token;
    }
  });
  return decoded
    .split('/')
    .filter((part) => part !== '')
    .join('/');
}
