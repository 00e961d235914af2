// HTML → the Markdown-shaped text the chunkers read (chunkers/markdown.ts): headings as `#` lines
// (so they make the heading path), paragraphs separated by blank lines, list items as `- ` / `1. `
// lines, table rows as one line each with cells joined by ` | `, preformatted text as a code
// fence. Used by the HTML reader and, on mammoth's output, by the DOCX reader: one conversion for
// both. What a page shows around its content (scripts, styles, navigation, forms, embedded media)
// is dropped; entities are decoded by the parser.
//
// Line numbers: the text's lines are its own, not the file's (an HTML file's lines hold markup, a
// DOCX has none), so a chunk's lines say where it sits in the extracted text, and the heading path
// is what locates it for a person.
import { Parser } from 'htmlparser2';
import { collapseWhitespace } from '../../text/normalise';
import { fenceAround, longestBacktickRun } from './markdown-lines';

export interface HtmlText {
  text: string;
  /** `<title>` (its h1 alone when it is the h1 and the site's name), else the first h1, else the first heading of any level; null when there is none. */
  title: string | null;
}

/** Elements whose whole content is not part of the document's text. */
const DROPPED = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'aside', 'form', 'button', 'select', 'textarea', 'input',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'canvas', 'audio', 'video', 'picture', 'img', 'map',
]);

/** ARIA roles of page furniture rather than content. */
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary', 'menu', 'menubar']);

/** Elements inside which a header or footer is the content's own (ARIA: not a banner or contentinfo). */
const SECTIONING = new Set(['article', 'main', 'section']);

const BLOCKS = new Set([
  'address', 'article', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'hr', 'html', 'legend', 'main', 'p', 'section', 'summary',
]);

const HEADING = /^h([1-6])$/;

/** A line the chunkers would take for structure (a heading, a code fence, a setext underline) but which is text here. */
const LOOKS_STRUCTURAL = /^(?:#|`{3}|~{3})|^(?:=+|-+)$/;


interface Frame {
  name: string;
  drop?: boolean;
  /** This td/th holds the row's current cell. */
  cell?: boolean;
  /** This element is the page's main content (<main>, role=main). */
  main?: boolean;
  /** This tr is a row of its own (not nested inside another table's cell). */
  row?: boolean;
  /** A link inside a heading: where its text starts in the heading's words. */
  linkFrom?: number;
  /** A <pre>: how many <code> elements it has held directly. */
  codes?: number;
  /** Inline code (outside <pre> and headings): where its text starts in the line's words. */
  codeFrom?: number;
}

/** Elements that set code in running text, written as Markdown code spans. */
const INLINE_CODE = new Set(['code', 'kbd', 'samp', 'tt']);

/**
 * A heading's permalink: a link whose whole text is a mark ("#" in Node's and Docusaurus' docs, "¶"
 * in Sphinx and MkDocs, "§" in rustdoc, a link emoji) or nothing. Judged by the link, not the text:
 * "C#" is a name, "Readline" followed by a link reading "#" is not.
 */
const PERMALINK = /^(?:[#¶§⚓]|\u{1F517})?\uFE0F?$/u;

/**
 * A page that marks its main content (<main> or role="main") is read from there only, so the
 * furniture around it that no tag names (a site's menu bar, a help popup) stays out; the title
 * still comes from <title>. When that leaves no text (the mark was only in a script, say), the
 * whole page is read.
 */
export function htmlToText(html: string, options: HtmlTextOptions = {}): HtmlText {
  if (/<main[\s>]|\brole\s*=\s*["']?main\b/i.test(html)) {
    const main = convert(html, true, options);
    if (main.text.length > 0) return main;
  }
  return convert(html, false, options);
}

export interface HtmlTextOptions {
  /**
   * The page's highest heading becomes `#`, the others following: a page whose h1 was left out
   * with its banner, or that starts at h2 (Node's API docs: the module an h2, its classes h3, their
   * methods h4), would otherwise have its third level below the chunkers' sections (H1–H3), and no
   * method would name its passage. For a page read alone (HTML, Word); an EPUB's pages are levels of
   * one book.
   */
  promoteHeadings?: boolean;
}

function convert(html: string, mainOnly: boolean, options: HtmlTextOptions): HtmlText {
  const lines: string[] = [];
  const stack: Frame[] = [];
  let inline: string[] = [];
  let needBlank = false;
  let prefix = '';
  let dropped = 0;
  let sectioning = 0;
  let main = 0;
  let inTitle = false;
  let titleText = '';
  let heading = 0;
  let inCell = false;
  let pre = 0;
  const lists: Array<{ ordered: boolean; n: number }> = [];
  const rows: string[][] = [];
  const found = { titleTag: null as string | null, h1: null as string | null, heading: null as string | null, afterH1: null as string | null };
  /** The index in `lines` of each heading, and the highest level (smallest number) among them. */
  const headingLines: number[] = [];
  let topLevel = 6;

  const emit = (line: string) => {
    if (needBlank && lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
    needBlank = false;
    lines.push(line);
  };
  /** Ends the current line of text (a list item's or a paragraph's). */
  const flushLine = () => {
    const text = collapseWhitespace(inline.join(''));
    inline = [];
    if (!text) return;
    emit(prefix + (LOOKS_STRUCTURAL.test(text) ? `\\${text}` : text));
    prefix = '';
  };
  /** Ends a paragraph: the next text starts after a blank line, except within a list or table, which stay one block. */
  const breakBlock = () => {
    flushLine();
    if (lists.length === 0 && rows.length === 0) needBlank = true;
  };
  /** Inside a heading, a table cell or <title>, block elements only separate words. */
  const inlineOnly = () => inTitle || heading > 0 || inCell;

  const open = (name: string, attrs: Record<string, string>) => {
    const frame: Frame = { name };
    stack.push(frame);
    if (dropped > 0 || drops(name, attrs, sectioning)) {
      frame.drop = true;
      dropped++;
      return;
    }
    if (SECTIONING.has(name)) sectioning++;
    if (name === 'main' || attrs.role?.trim().toLowerCase() === 'main') {
      frame.main = true;
      main++;
    }
    if (name === 'title') {
      inTitle = true;
      return;
    }
    if (pre > 0) {
      if (name === 'br') inline.push('\n');
      if (name === 'pre') pre++;
      // One <pre> holding two listings side by side (Node's docs: the ES module and the CommonJS form
      // of an example, one shown at a time): the second starts on a line of its own, after a blank.
      const parent = stack[stack.length - 2];
      if (name === 'code' && parent?.name === 'pre') {
        if (parent.codes) inline.push(inline.join('').endsWith('\n') ? '\n' : '\n\n');
        parent.codes = (parent.codes ?? 0) + 1;
      }
      return;
    }
    // A heading's code stays plain: the heading path is read as words.
    if (INLINE_CODE.has(name) && heading === 0) frame.codeFrom = inline.length;
    if (inlineOnly()) {
      if (heading > 0 && name === 'a') frame.linkFrom = inline.length;
      if (isBlockish(name) || name === 'br') inline.push(' ');
      return;
    }
    const level = HEADING.exec(name);
    if (level) {
      breakBlock();
      needBlank = true;
      heading = Number(level[1]);
    } else if (name === 'pre') {
      breakBlock();
      needBlank = true;
      pre = 1;
    } else if (name === 'ul' || name === 'ol') {
      if (lists.length === 0) breakBlock();
      else flushLine();
      lists.push({ ordered: name === 'ol', n: Number(attrs.start) > 0 ? Number(attrs.start) - 1 : 0 });
    } else if (name === 'li') {
      flushLine();
      const list = lists[lists.length - 1];
      // A nested list's items are indented under their parent's text, so the nesting stays (an option's fields under it).
      const indent = lists.slice(0, -1).reduce((width, l) => width + (l.ordered ? 3 : 2), 0);
      if (list) prefix = ' '.repeat(indent) + (list.ordered ? `${++list.n}. ` : '- ');
    } else if (name === 'table') {
      breakBlock();
      needBlank = true;
    } else if (name === 'tr') {
      flushLine();
      frame.row = true;
      rows.push([]);
    } else if (name === 'td' || name === 'th') {
      if (rows.length > 0) {
        inline = [];
        frame.cell = true;
        inCell = true;
      }
    } else if (name === 'br') {
      flushLine();
    } else if (BLOCKS.has(name)) {
      if (lists.length > 0 || rows.length > 0) flushLine();
      else breakBlock();
    }
  };

  const close = (name: string) => {
    const at = stack.findLastIndex((f) => f.name === name);
    if (at < 0) return;
    // Elements left open inside this one close with it.
    for (const frame of stack.splice(at).reverse()) closeFrame(frame);
  };

  const closeFrame = (frame: Frame) => {
    const { name } = frame;
    if (frame.drop) {
      dropped--;
      return;
    }
    if (SECTIONING.has(name)) sectioning--;
    if (frame.main) main--;
    if (name === 'title') {
      inTitle = false;
      found.titleTag ??= collapseWhitespace(titleText) || null;
      return;
    }
    if (pre > 0) {
      if (name === 'pre' && --pre === 0) emitFence();
      return;
    }
    if (frame.codeFrom !== undefined) asCodeSpan(frame.codeFrom);
    if (frame.cell) {
      rows[rows.length - 1]!.push(collapseWhitespace(inline.join('')));
      inline = [];
      inCell = false;
      return;
    }
    if (inlineOnly()) {
      if (frame.linkFrom !== undefined && inline.length >= frame.linkFrom && PERMALINK.test(inline.slice(frame.linkFrom).join('').trim())) inline.length = frame.linkFrom;
      const level = HEADING.exec(name);
      if (level && Number(level[1]) === heading) emitHeading();
      else if (isBlockish(name)) inline.push(' ');
      return;
    }
    if (frame.row) {
      const cells = rows.pop()!;
      inline = [];
      if (cells.some((c) => c.length > 0)) emit(cells.join(' | '));
    } else if (name === 'ul' || name === 'ol') {
      flushLine();
      lists.pop();
      if (lists.length === 0) breakBlock();
    } else if (name === 'li') {
      flushLine();
      prefix = '';
    } else if (name === 'table') {
      breakBlock();
      needBlank = true;
    } else if (BLOCKS.has(name)) {
      if (lists.length > 0 || rows.length > 0) flushLine();
      else breakBlock();
    }
  };

  const emitHeading = () => {
    // Documentation generators end headings with a permalink, "¶" (Sphinx, MkDocs) or "§" (rustdoc): not part of the name.
    const text = collapseWhitespace(inline.join('')).replace(/\s*[¶§]$/, '');
    inline = [];
    const level = heading;
    heading = 0;
    if (!text) return;
    needBlank = true;
    emit(`${'#'.repeat(level)} ${text}`);
    headingLines.push(lines.length - 1);
    topLevel = Math.min(topLevel, level);
    needBlank = true;
    if (found.h1 !== null && found.afterH1 === null && text !== found.h1) found.afterH1 = text;
    if (level === 1) found.h1 ??= text;
    found.heading ??= text;
  };

  /** The words since `from` as one Markdown code span, its backticks longer than any run inside it. */
  const asCodeSpan = (from: number) => {
    const code = collapseWhitespace(inline.slice(from).join(''));
    if (!code) return;
    const tick = '`'.repeat(longestBacktickRun(code) + 1);
    const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
    inline.length = from;
    inline.push(`${tick}${pad}${code}${pad}${tick}`);
  };

  /** Preformatted text as a code fence longer than any backtick run inside it, so nothing in it reads as structure. */
  const emitFence = () => {
    const body = inline.join('').replace(/^\n/, '').replace(/\s+$/, '');
    inline = [];
    needBlank = true;
    if (/\S/.test(body)) {
      const fence = fenceAround(body);
      emit(fence);
      for (const line of body.split('\n')) lines.push(line);
      lines.push(fence);
    }
    needBlank = true;
  };

  /**
   * Texts that stand alone between two tags anywhere on the page, banners and menus included
   * (mdBook's menu bar names the book, a Docusaurus navbar the site), lower-cased: a part of the
   * <title> found here is a name the page shows by itself, the site's.
   */
  const shown = new Set<string>();
  let run = '';
  const endRun = () => {
    const text = collapseWhitespace(run);
    if (text !== '' && text.length <= MAX_NAME) shown.add(text.toLowerCase());
    run = '';
  };

  const parser = new Parser(
    {
      onopentag: (name, attrs) => {
        endRun();
        open(name, attrs);
      },
      onclosetag: (name) => {
        endRun();
        close(name);
      },
      ontext: (data) => {
        if (!inTitle && run.length <= MAX_NAME) run += data;
        if (dropped > 0) return;
        if (inTitle) titleText += data;
        else if (!mainOnly || main > 0) inline.push(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end(); // closes whatever the page left open
  for (const frame of stack.splice(0).reverse()) closeFrame(frame);
  flushLine();

  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (options.promoteHeadings && topLevel > 1) for (const at of headingLines) lines[at] = lines[at]!.slice(topLevel - 1);
  const title = pageTitle(found.titleTag, found.h1 ?? found.heading, found.afterH1);
  return { text: lines.join('\n'), title: (title === found.titleTag && title !== null ? withoutSiteName(title, found.h1, shown) : title) ?? found.heading };
}

function drops(name: string, attrs: Record<string, string>, sectioning: number): boolean {
  if (DROPPED.has(name)) return true;
  if ((name === 'header' || name === 'footer') && sectioning === 0) return true;
  if ('hidden' in attrs) return true;
  return attrs.role !== undefined && DROPPED_ROLES.has(attrs.role.trim().toLowerCase());
}

/** Longest text taken for a site's name. */
const MAX_NAME = 200;
/** What sets a site's name off in a <title>: a bar, a dot or a dash between spaces. */
const SEPARATOR = String.raw`\s+[|·–—-]\s+`;
const SITE_LAST = new RegExp(`^(.*\\S)${SEPARATOR}(.+)$`);
const SITE_FIRST = new RegExp(`^(.+?)${SEPARATOR}(.*\\S)$`);

/**
 * A <title> whose last part (or first) is a name the page shows by itself elsewhere is the page's
 * name and the site's: mdBook writes "Arc - The Rustonomicon" over a chapter whose h1 is
 * "Implementing Arc", its menu bar showing "The Rustonomicon". The page is then named by its h1,
 * else by the title without the site's name, so no passage's heading path carries the site's. A
 * title that is only the site's name has no part to take, and stays.
 */
function withoutSiteName(title: string, h1: string | null, shown: ReadonlySet<string>): string {
  const last = SITE_LAST.exec(title);
  if (last && shown.has(last[2]!.toLowerCase())) return h1 ?? last[1]!;
  const first = SITE_FIRST.exec(title);
  if (first && shown.has(first[1]!.toLowerCase())) return h1 ?? first[2]!;
  return title;
}

function isBlockish(name: string): boolean {
  return BLOCKS.has(name) || HEADING.test(name) || ['ul', 'ol', 'li', 'table', 'tr', 'td', 'th', 'pre'].includes(name);
}

/**
 * The page's name: its <title> without the site's name. A site names itself in every page's title
 * and often in its h1 ("Readline | Node.js v20 Documentation" over an h1 "Node.js v20 documentation"),
 * or the title is the page's h1 and the site's name ("Installation — Flask Documentation" over an h1
 * "Installation"): either way the part that is the page's own is kept.
 */
function pageTitle(titleTag: string | null, h1: string | null, next: string | null): string | null {
  if (!titleTag || !h1 || titleTag === h1) return titleTag ?? h1;
  const parts = titleTag.split(/\s+[|·–—-]\s+/);
  const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;
  // The h1 is one part: it is the site's name when the page's next heading is the other part.
  const other = parts.length === 2 && parts.some((p) => same(p, h1)) ? parts.find((p) => !same(p, h1)) : undefined;
  if (other !== undefined && next !== null && same(other, next)) return other;
  // The h1 is a whole part of the title ("Installation — Flask Documentation"): the rest is the site's.
  return parts.length > 1 && parts.some((p) => same(p, h1)) ? h1 : titleTag;
}
