import type { AnswerResult } from '../../../shared/answer';
import { keepsTurn } from '../../../shared/conversations';
import { QuireError } from '../../../shared/errors';
import { formatWhere } from '../../../shared/pages';
import { scopeLabel } from '../../../shared/scope-path';
import { contractInput, numberFlag } from '../args';
import { noteEmptyIndex, rememberModel, type CliContext } from '../context';

export interface AskFlags {
  k?: string | undefined;
  model?: string | undefined;
  numCtx?: string | undefined;
  collections?: string[] | undefined;
  /** Every folder, said outright: a follow-up that names none is asked of its conversation's folders. */
  allFolders?: boolean | undefined;
  /** A stored conversation to continue. */
  conversation?: string | undefined;
}

/** Streams an answer to the terminal, then its citations and their checks, and the token budget. */
export async function askCommand(ctx: CliContext, question: string, flags: AskFlags): Promise<number> {
  if (flags.allFolders && flags.collections !== undefined) throw new QuireError('INVALID_ARGUMENT', '--all-folders and --collection cannot be given together: one asks of every folder, the other of those named.');
  const input = contractInput(
    'ask',
    { question, k: numberFlag('k', flags.k), numCtx: numberFlag('num-ctx', flags.numCtx), conversationId: numberFlag('conversation', flags.conversation), collections: flags.allFolders ? [] : flags.collections },
    { numCtx: '--num-ctx', k: '--k', conversationId: '--conversation' },
  );
  await rememberModel(ctx, 'chatModel', flags.model);
  const stream = !ctx.out.json;
  let streamed = false;
  let result: AnswerResult | null = null;
  // The search's note that vectors could not be used often has the same cause as the answer's failure.
  const noted: string[] = [];
  for await (const event of ctx.engine.ask(input, ctx.signal)) {
    // A follow-up is searched as the model rewrote it: show what was searched, so a poor rewrite can be seen.
    if (event.type === 'rewrite' && event.standaloneQuery !== question) ctx.out.note(`Searched for: ${event.standaloneQuery}`);
    if (event.type === 'retrieval' && event.note) {
      ctx.out.note(`Note: ${event.note}`);
      noted.push(event.note);
    }
    if (event.type === 'waiting') ctx.out.note(event.note);
    if (event.type === 'token' && stream) {
      ctx.out.stream(event.text);
      streamed = true;
    }
    if (event.type === 'done' || event.type === 'error') result = event.result;
  }
  if (!result) throw new Error('ask ended without a result');
  const r = result;
  if (r.refusedWithoutModel) noteEmptyIndex(ctx);
  if (r.error && r.status !== 'cancelled' && !ctx.out.json) {
    const message = r.error.message;
    ctx.out.note(`No answer (${r.error.code}): ${noted.includes(message) ? 'the chat model could not be asked either, for the reason in the note above.' : message}`);
  }
  ctx.out.result(toJson(r), () => human(r, streamed, input.conversationId));
  return r.status === 'cancelled' ? 130 : r.status === 'error' ? 1 : 0;
}

/** The documented `ask --json` shape. */
function toJson(r: AnswerResult) {
  return {
    answer: r.answer,
    refused: r.refused,
    citations: r.citations.map((c) => ({ chunkId: c.chunkId, path: c.path, lines: c.lines, pages: c.pages, check: c.check, sentence: c.sentence, missing: c.missing })),
    flags: r.flags,
    budget: r.budget && {
      estimated: r.budget.estimated,
      reported: r.budget.reported,
      numCtx: r.budget.numCtx,
      k: r.budget.k,
      exact: r.budget.exact,
      truncationSuspected: r.budget.truncationSuspected,
      lostSources: r.budget.lostSources,
      ratio: r.budget.ratio,
      breakdown: r.budget.breakdown,
    },
    retrieval: r.retrieval.map((c) => ({ chunkId: c.chunkId, path: c.path, lexicalRank: c.lexicalRank, denseRank: c.denseRank, score: c.score, sent: c.sent, ...(c.dropped ? { dropped: c.dropped } : {}) })),
    latencyMs: { retrieve: r.latencyMs.retrieve, generate: r.latencyMs.generate, total: r.latencyMs.total },
    model: { chat: r.model.chat, embed: r.model.embed },
    /** The search mode used (the setting's, or keyword search when vectors could not be used). */
    mode: r.retrievalMode,
    standaloneQuery: r.standaloneQuery,
    scope: r.scope.map(scopeLabel),
    runId: r.runId,
    conversationId: r.conversationId ?? null,
    error: r.error,
  };
}

const CHECK_LABEL = { supported: 'supported', weak: 'weakly supported', unsupported: 'NOT supported', 'unknown-source': 'NOT among the sources' } as const;

function human(r: AnswerResult, streamed: boolean, continued: number | undefined): string {
  const out: string[] = [];
  // Streamed tokens are already on screen, followed by a blank line; an answer that never came (an error, said on stderr) leaves none.
  if (streamed || r.answer !== '') out.push(streamed ? '' : r.answer);
  // Stopped mid-stream, the text above simply ends: say so before anything else is printed under it.
  if (r.status === 'cancelled') out.push(streamed ? '\n(Stopped: the answer above is incomplete.)' : '(Stopped before the model answered.)');
  if (r.refusedWithoutModel) out.push('(No passage in your documents matched, so the model was not asked.)');
  if (r.scope.length > 0) out.push(`(Asked of ${r.scope.map((c) => `“${scopeLabel(c)}”`).join(', ')} only.)`);
  if (r.citations.length > 0) {
    out.push('\nCitations:');
    const seen = new Set<string>();
    for (const c of r.citations) {
      const key = `${c.chunkId}|${c.check}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // A PDF's lines are lines of its extracted text; its pages are what a reader can look up.
      const where = !c.path ? '(unknown source)' : formatWhere(c.path, c.lines, c.pages);
      out.push(`  [${c.chunkId}] ${where} — ${CHECK_LABEL[c.check]}${c.missing.length ? ` (not in the source: ${c.missing.join(', ')})` : ''}`);
    }
  }
  const warnings: Record<string, string> = {
    uncited: 'The answer cites none of the sources: treat it as unverified.',
    'unknown-source': 'The answer cites a source that was never given to the model.',
    'unsupported-citation': 'At least one cited passage does not support its sentence.',
    'truncation-suspected': 'Ollama read far fewer tokens than were sent: the prompt was probably cut. Raise --num-ctx or lower --k.',
    'injection-in-sources': 'A source contains text that looks like instructions to the model; it was passed as data only.',
    'length-limit': 'The answer hit the length limit and may be cut off.',
  };
  // With an exact count a shortfall is certain, and the lost sources are known.
  if (r.budget?.exact && r.budget.truncationSuspected) {
    warnings['truncation-suspected'] = `Ollama cut the prompt: it read ${r.budget.reported} of ${r.budget.estimated} tokens${r.budget.lostSources.length ? `, losing source${r.budget.lostSources.length > 1 ? 's' : ''} ${r.budget.lostSources.join(', ')}` : ''}. Raise --num-ctx or lower --k.`;
  }
  for (const f of r.flags) out.push(`Warning: ${warnings[f] ?? f}`);
  if (r.budget) {
    const b = r.budget;
    const how = b.exact ? 'exact, the model\'s own tokenizer and template' : `approximate, ×${b.ratio.toFixed(2)} calibration`;
    out.push(
      `\nContext: ${b.estimated} tokens estimated (${how}), ${b.reported === null ? 'no count from Ollama' : `${b.reported} read by Ollama`}, of num_ctx ${b.numCtx} ` +
        `(${b.breakdown.reserve} reserved for the answer); ${b.k} ${b.k === 1 ? 'source' : 'sources'} sent.`,
    );
  }
  out.push(`Models: ${r.model.chat}${r.model.embed ? ` + ${r.model.embed}` : ''} · ${r.retrievalMode} search · retrieve ${r.latencyMs.retrieve} ms · generate ${r.latencyMs.generate} ms · run #${r.runId}`);
  if (r.conversationId !== undefined) out.push(`Conversation #${r.conversationId}: continue it with --conversation ${r.conversationId}`);
  // A failed or stopped ask is not a turn (shared/conversations.ts keepsTurn): say so, so nobody looks for it there.
  else if (!keepsTurn(r)) out.push(continued !== undefined ? `Not added to conversation #${continued}: there was no complete answer. Ask again with --conversation ${continued}` : 'Not stored as a conversation: there was no complete answer.');
  return out.join('\n');
}
