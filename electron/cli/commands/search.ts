import { QuireError } from '../../../shared/errors';
import { SEARCH_MODES, type SearchResponse } from '../../../shared/search';
import { distinctPaths } from '../../../shared/distinct-paths';
import { formatWhere } from '../../../shared/pages';
import { plainSnippet } from '../../../shared/plain-snippet';
import { scopeLabel } from '../../../shared/scope-path';
import { collapseWhitespace } from '../../core/engine';
import { contractInput, numberFlag } from '../args';
import { noteEmptyIndex, type CliContext } from '../context';

export async function searchCommand(ctx: CliContext, query: string, flags: { k?: string | undefined; mode?: string | undefined; collections?: string[] | undefined }): Promise<number> {
  if (flags.mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(flags.mode)) {
    throw new QuireError('INVALID_ARGUMENT', `--mode must be one of ${SEARCH_MODES.join(', ')}.`);
  }
  const input = contractInput('search', { query, k: numberFlag('k', flags.k) ?? 8, mode: flags.mode, collections: flags.collections });
  const res = await ctx.engine.search(input, ctx.signal);
  // The folders as the engine resolved them (names, subfolders), said as ask says them.
  const scope = (res.scope ?? []).map(scopeLabel);
  if (res.fallback) ctx.out.note(`Note: ${res.fallback.requested} search was not possible (${res.fallback.reason}); used keyword search.`);
  if (res.results.length === 0) noteEmptyIndex(ctx);
  ctx.out.result(
    {
      mode: res.mode,
      ...(res.fallback ? { fallback: res.fallback } : {}),
      scope,
      results: res.results.map((r) => ({
        chunkId: r.chunkId,
        path: r.path,
        heading: r.heading,
        lines: r.lines,
        pages: r.pages,
        text: r.text,
        score: r.score,
        lexicalRank: r.lexicalRank,
        denseRank: r.denseRank,
      })),
    },
    () => human(res, scope),
  );
  return 0;
}

function human(res: SearchResponse, scope: readonly string[]): string {
  // As ask ends "(Asked of … only.)": a person reading results later sees they were not from everything.
  const only = scope.length > 0 ? ` in ${scope.map((c) => `“${c}”`).join(', ')} only` : '';
  if (res.results.length === 0) return `No passages found (${res.mode} search${only}).`;
  const out = [`${res.results.length} ${res.results.length === 1 ? 'passage' : 'passages'} (${res.mode} search${res.embedModel ? `, ${res.embedModel}` : ''}, ${Math.round(res.ms)} ms)${only}`, ''];
  // The same file name in two imported folders reads alike: named with as much of its folder as tells them apart.
  const names = distinctPaths(res.results);
  res.results.forEach((r, i) => {
    const ranks = [r.lexicalRank !== null ? `keyword #${r.lexicalRank}` : null, r.denseRank !== null ? `vector #${r.denseRank}` : null].filter(Boolean).join(', ');
    out.push(`${i + 1}. ${formatWhere(names[i]!, r.lines, r.pages)}  [${r.chunkId}]  score ${r.score.toFixed(4)} (${ranks})`);
    out.push(`   ${r.heading}`);
    // The passage opens with its neighbour; the snippet starts where the match is, read as plain text (no ##, link addresses, fences).
    const snippet = collapseWhitespace(plainSnippet(r.text.slice(r.hit.start)));
    out.push(`   ${snippet.length > 240 ? `${snippet.slice(0, 240)}…` : snippet}`);
    out.push('');
  });
  return out.join('\n').trimEnd();
}
