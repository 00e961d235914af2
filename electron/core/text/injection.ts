/**
 * Prompt-injection signals in a chunk of someone's notes. A flag does not block anything: the
 * chunk is still data, but the prompt marks it and the UI tells the user why. So patterns favour
 * precision — ordinary technical prose must come out clean — over catching every paraphrase.
 * Phrase and marker patterns live in injection-patterns.ts, invisible characters in invisible-chars.ts.
 */
import { CONTROL_TOKENS, INSTRUCTION_PATTERNS, ROLE_MARKER_PATTERNS } from './injection-patterns';
import { removeAllInvisibles, removeInvisibles, suspiciousInvisibles } from './invisible-chars';

/**
 * Warnings about a passage. Ordinary links are not among them: notes are full of links (82% of tldr
 * pages end with "More information: <https://…>"), and a warning on nearly every passage means
 * nothing. Remote images stay: rendering one fetches it, which can carry data out in its URL.
 */
export type InjectionFlag = 'instructions' | 'role-marker' | 'invisible-characters' | 'remote-image';

/**
 * The warnings among a chunk's stored flags. Chunks indexed before links became neutral still carry
 * 'remote-link'; reading through this keeps the prompt, the answer's flags and the UI from showing it.
 */
export function warningFlags(stored: readonly string[]): InjectionFlag[] {
  return stored.filter((f): f is InjectionFlag => WARNING_FLAGS.has(f));
}

/** Flattened copy for phrase matching; see INSTRUCTION_PATTERNS. */
function flatten(text: string): string {
  return removeAllInvisibles(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[*_~`]+/g, '') // "**ignore** previous instructions" is the same sentence
    .replace(/[^\S\n]*\n[^\S\n]*(?:>[^\S\n]*)*/g, '\n') // "…everything\n> you were told" continues the line
    .replace(/[^\S\n]+/g, ' ');
}

// Hosts that never leave the machine. Everything else, including LAN addresses, is remote.
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0.0.0.0';
}

/** True for an http(s) or protocol-relative URL to a non-loopback host; relative paths, data: etc. are local. */
export function isRemoteUrl(url: string): boolean {
  const u = url.trim().replace(/^<|>$/g, '');
  if (!/^(?:https?:)?\/\//i.test(u)) return false;
  try {
    const host = new URL(u.startsWith('//') ? `https:${u}` : u).hostname;
    return host !== '' && !isLoopback(host);
  } catch {
    return false; // "http://<your-server>:8080" placeholders cannot be fetched
  }
}

// Markdown images ![alt](url "title") and HTML <img src="url">: rendering one fetches it, which can
// leak data in the URL. Links (bare, autolinked, Markdown) are neutral and not looked at.
const MD_IMAGE = /!\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^\s)]+)[^)\n]*\)/g;
const HTML_IMAGE = /<img\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)[^>]*>/gi;

function hasRemoteImage(text: string): boolean {
  for (const re of [MD_IMAGE, HTML_IMAGE]) {
    for (const m of text.matchAll(re)) if (isRemoteUrl(m[1] ?? '')) return true;
  }
  return false;
}

/** Injection signals in a text, sorted and unique. */
export function detectInjection(text: string): InjectionFlag[] {
  const flags = new Set<InjectionFlag>();
  if (hasRemoteImage(text)) flags.add('remote-image');
  if (suspiciousInvisibles(text).length > 0) flags.add('invisible-characters');
  const flat = flatten(text);
  if (INSTRUCTION_PATTERNS.some((re) => re.test(flat))) flags.add('instructions');
  const visible = removeAllInvisibles(text).normalize('NFKC');
  if (ROLE_MARKER_PATTERNS.some((re) => re.test(visible))) flags.add('role-marker');
  return [...flags].sort();
}

const PHRASES: Record<InjectionFlag, string> = {
  instructions: 'text that gives instructions to an AI assistant',
  'role-marker': 'chat role markers or prompt delimiters',
  'invisible-characters': 'invisible characters',
  'remote-image': 'images loaded from remote websites',
};
const ORDER: readonly InjectionFlag[] = ['instructions', 'role-marker', 'invisible-characters', 'remote-image'];
const WARNING_FLAGS: ReadonlySet<string> = new Set<InjectionFlag>(ORDER);

/** One sentence for people, e.g. "This passage contains invisible characters and images loaded from remote websites." */
export function describeFlags(flags: readonly InjectionFlag[]): string {
  const parts = ORDER.filter((f) => flags.includes(f)).map((f) => PHRASES[f]);
  if (parts.length === 0) return 'No signs of prompt injection were found in this passage.';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `This passage contains ${list}.`;
}

/**
 * A chunk's text (or a question) made safe to put in a prompt: suspicious invisible characters
 * removed (first, so "<\u200Bsource" cannot survive as "<source"); any `<source`/`</source>` turned
 * into `&lt;source`/`&lt;/source>` so the chunk can neither close its own block nor fake a new one;
 * and every chat-template control marker (CONTROL_TOKENS) written with its `<` as `&lt;` and its
 * `[` as `&#91;` (`&lt;|im_start|>`, `&#91;INST]`), which no tokenizer reads as a special token
 * while a person, or the model, can still read what the note says.
 */
export function neutraliseForPrompt(text: string): string {
  return removeInvisibles(text)
    .replace(/<(?=\s*\/?\s*sources?\b)/gi, '&lt;')
    .replace(CONTROL_TOKENS, (token) => token.replace(/</g, '&lt;').replace(/\[/g, '&#91;'));
}
