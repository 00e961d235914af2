// Chat behaviour of the stand-in: prompt rendering and token accounting, Ollama's silent
// truncation at num_ctx, the default extractive "model", and reply limiting/streaming.
//
// Truncation follows Ollama (server/prompt.go chatPrompt, then the runner's NewSequence):
//  1. Walking back from the newest message, keep the longest run of recent messages that fits in
//     num_ctx, plus every system message before that run. The latest message is always kept.
//     (Ollama 0.12.x also dropped the system message of a bare [system, user] prompt; 0.16 and
//     later keep it, as docs/ARCHITECTURE.md describes, and so does the stand-in.)
//  2. If what is left still exceeds num_ctx, the runner keeps the first num_keep tokens and
//     discards the tokens right after them, i.e. the FRONT of the remaining prompt is cut.
//  No error either way; prompt_eval_count reports only what was kept.
import { isStopword, stem, words } from './embed.js';
import { GENERIC_TOKENIZER, type ModelTokenizer, detokenize, tokenize } from './tokens.js';

export interface ChatMessage {
  role: string;
  content: string;
  [extra: string]: unknown;
}

/** Tokens of the rendered prompt for these messages: what prompt_eval_count reports. */
export function promptTokens(msgs: readonly ChatMessage[], tokenizer: ModelTokenizer = GENERIC_TOKENIZER): number {
  return tokenizer.promptTokens(msgs);
}

/** Step 1 above. With truncate=false nothing is dropped (the caller then errors if too long). */
export function fitMessages(msgs: readonly ChatMessage[], numCtx: number, truncate = true, tokenizer: ModelTokenizer = GENERIC_TOKENIZER): ChatMessage[] {
  const last = msgs.length - 1;
  const systemsBefore = (i: number) => msgs.slice(0, i).filter((m) => m.role === 'system');
  let n = last;
  for (let i = last - 1; i >= 0; i--) {
    if (msgs[i]!.role === 'system') continue; // kept regardless, as part of systemsBefore
    if (truncate && tokenizer.promptTokens([...systemsBefore(i), ...msgs.slice(i)]) > numCtx) break;
    n = i;
  }
  // Everything from n on, with the system messages before n in front.
  return [...systemsBefore(n), ...msgs.slice(n)];
}

/** Step 2 above: cut tokens from the front of the remaining prompt until it fits. */
export function cutFront(msgs: readonly ChatMessage[], numCtx: number, tokenizer: ModelTokenizer = GENERIC_TOKENIZER): ChatMessage[] {
  const out = msgs.map((m) => ({ ...m }));
  for (let guard = 0; guard < 10_000; guard++) {
    const excess = tokenizer.promptTokens(out) - numCtx;
    const first = out[0];
    if (excess <= 0 || !first) break;
    const toks = tokenizer.tokenize(first.content);
    if (toks.length <= excess && out.length > 1) {
      out.shift(); // its whole content goes, and its header with it
      continue;
    }
    if (toks.length === 0) break; // num_ctx smaller than the template itself
    first.content = tokenizer.detokenize(toks.slice(Math.min(excess, toks.length)));
  }
  return out;
}

// ---- extractive answering -------------------------------------------------------------------

/**
 * Default source-block opening: `<source id="doc#3" ...>` (preferred), or a line starting with a
 * bracketed id that contains "#", e.g. `[notes/a.md#2] Title > Section` (optionally after `#`s or
 * "Source:"). The id is the first capture group that matched, or a group named `id`.
 */
export const DEFAULT_SOURCE_PATTERN =
  /<source\b[^>]*?\bid\s*=\s*["']([^"']+)["'][^>]*>|^[ \t]*(?:#{1,6}[ \t]*)?(?:source[ \t]*:?[ \t]*)?\[([^\]\n]*#[^\]\n]*)\](?!\()[ \t:]*/gim;

// Where a block stops short of the next opening: an explicit close, or the question label (a
// bracket-style last block would otherwise swallow the question and then "answer" with it).
const BLOCK_END = /<\/source>|<\/sources>|^[ \t]*(?:question|query|user question)[ \t]*:/im;
const QUESTION_LABEL = /^[ \t]*(?:question|query|user question|q)[ \t]*:[ \t]*/gim;

export interface SourceBlock {
  id: string;
  text: string;
}

function globalPattern(re: RegExp): RegExp {
  const flags = re.flags.includes('g') ? re.flags : `${re.flags}g`;
  return new RegExp(re.source, flags);
}

interface Opening {
  id: string;
  start: number;
  end: number;
}

function openings(text: string, pattern: RegExp): Opening[] {
  const out: Opening[] = [];
  for (const m of text.matchAll(globalPattern(pattern))) {
    const id = m.groups?.id ?? m.slice(1).find((g) => g !== undefined);
    if (id !== undefined && m[0].length > 0) out.push({ id: id.trim(), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Source blocks in one message, in order. Block text runs to the next opening or a BLOCK_END. */
export function parseSources(text: string, pattern: RegExp = DEFAULT_SOURCE_PATTERN): SourceBlock[] {
  const opens = openings(text, pattern);
  return opens.map((o, k) => {
    const body = text.slice(o.end, opens[k + 1]?.start ?? text.length);
    const stop = BLOCK_END.exec(body);
    return { id: o.id, text: (stop ? body.slice(0, stop.index) : body).trim() };
  });
}

/**
 * The question: the text after the last "Question:" label if any, else the last paragraph once
 * closed <source> blocks are removed (the design puts the question last). With bracket-style
 * blocks the last block may swallow that paragraph; extractiveReply never answers with it.
 */
export function extractQuestion(text: string): string {
  const labelled = [...text.matchAll(QUESTION_LABEL)].pop();
  if (labelled) return text.slice(labelled.index + labelled[0].length).split(/\n\s*\n/)[0]!.trim();
  const rest = text.replace(/<source\b[^>]*>[\s\S]*?<\/source>/gi, '').replace(/<\/?sources\b[^>]*>/gi, '');
  const paragraphs = rest.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return paragraphs.pop() ?? '';
}

/**
 * Sentences of a source block. Notes are often hard-wrapped: a line break followed by a
 * lower-case word continues the sentence; anything else (blank line, heading, list item, a new
 * capitalised line such as a title) starts a new one.
 */
function sentences(block: string): string[] {
  return block
    .replace(/\n(?=[ \t]*[\p{Ll}`])/gu, ' ')
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '').trim())
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(\[])/u))
    .map((s) => s.trim())
    .filter(Boolean);
}

function contentTerms(text: string): Set<string> {
  return new Set(words(text).filter((w) => !isStopword(w)).map(stem));
}

export const NOT_IN_DOCUMENTS = 'Not in the documents.';

/**
 * The default "model": answers with the source sentence that shares the most content words with
 * the question, cited as ` [id]` (two sentences when two different sources tie for best), or
 * exactly "Not in the documents." when no sentence shares enough of the question's content words:
 * any one for a question of one or two, half of them for longer ones (one shared word such as
 * "world" is no answer to "who won the football world cup in 1998").
 */
export function requiredOverlap(questionTerms: number): number {
  return questionTerms <= 2 ? 1 : Math.ceil(questionTerms / 2);
}

export function extractiveReply(messages: readonly ChatMessage[], pattern: RegExp = DEFAULT_SOURCE_PATTERN): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user') ?? messages[messages.length - 1];
  // A "rewrite this follow-up as a standalone question" prompt: echo the last question, as a
  // model that found nothing to resolve would.
  const rewrite = /Last question:\s*([^\n]+)\s*\n+\s*Standalone question:\s*$/i.exec(String(lastUser?.content ?? ''));
  if (rewrite?.[1]) return rewrite[1].trim();
  const question = lastUser ? extractQuestion(lastUser.content) : '';
  const qTerms = contentTerms(question);
  const scored: { id: string; sentence: string; score: number }[] = [];
  for (const m of messages) {
    for (const block of parseSources(m.content, pattern)) {
      for (const sentence of sentences(block.text)) {
        // Never "answer" with the question itself when a source block swallowed it.
        if (question && (sentence.includes(question) || question.includes(sentence))) continue;
        let score = 0;
        for (const t of contentTerms(sentence)) if (qTerms.has(t)) score++;
        scored.push({ id: block.id, sentence, score });
      }
    }
  }
  const best = Math.max(0, ...scored.map((s) => s.score));
  if (best === 0 || best < requiredOverlap(qTerms.size)) return NOT_IN_DOCUMENTS;
  // Among equals, a full sentence beats a heading line ("Lunch" vs "Lunch is at noon.").
  const full = (x: string) => (/[.!?]["')\]]?$/.test(x) ? 1 : 0);
  const ranked = scored
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => b.score - a.score || full(b.sentence) - full(a.sentence) || a.i - b.i);
  const picked: typeof scored = [];
  for (const s of ranked) {
    if (s.score === best && !picked.some((p) => p.id === s.id)) picked.push(s);
    if (picked.length === 2) break;
  }
  return picked.map((p) => `${p.sentence} [${p.id}]`).join(' ');
}

// ---- reply shaping ----------------------------------------------------------------------------

/** Applies num_predict: the reply is cut at that many tokens and done_reason becomes "length". */
export function limitReply(reply: string, numPredict: number | undefined) {
  const toks = tokenize(reply);
  if (numPredict !== undefined && numPredict > 0 && toks.length > numPredict) {
    return { text: detokenize(toks.slice(0, numPredict)), evalCount: numPredict, doneReason: 'length' as const };
  }
  // eval_count is omitted by Ollama when 0; a real model always emits at least the end token.
  return { text: reply, evalCount: Math.max(1, toks.length), doneReason: 'stop' as const };
}

/** Word-sized deltas whose concatenation is exactly the reply. */
export function splitDeltas(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}
