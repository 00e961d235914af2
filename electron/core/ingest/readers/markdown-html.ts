import { collapseWhitespace } from '../../text/normalise';
/**
 * HTML inside Markdown, reduced to the text a person reads: comments and script or style blocks
 * go; a tag goes but the words it carries for people stay (a listing's caption, an image's alt
 * text, a title). Every newline is kept, so the lines around it keep their numbers for citations.
 */
/** Attributes whose values people read: a listing's caption, an image's alt text, a tooltip, a label. */
export const TEXT_ATTRIBUTE_NAMES: readonly string[] = ['caption', 'alt', 'title', 'aria-label'];
const TEXT_ATTRIBUTES = new RegExp(`\\b(?:${TEXT_ATTRIBUTE_NAMES.join('|')})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'gi');
const SCRIPT_OR_STYLE = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
const TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;

/** Only the newlines of `s`: what a removed piece leaves behind. */
export function newlinesOf(s: string): string {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return '\n'.repeat(n);
}

/** The words a tag carries for people, with its newlines. */
export function tagText(tag: string): string {
  if (tag.startsWith('<!--')) return newlinesOf(tag);
  const words = [...tag.matchAll(TEXT_ATTRIBUTES)].map((m) => collapseWhitespace(m[1] ?? m[2] ?? '')).filter((w) => w.length > 0);
  return words.join(' ') + newlinesOf(tag);
}

/** An HTML block's text: scripts, styles and comments removed, tags replaced by their words. */
export function htmlBlockText(html: string): string {
  return html.replace(SCRIPT_OR_STYLE, newlinesOf).replace(COMMENT, newlinesOf).replace(TAG, tagText);
}
