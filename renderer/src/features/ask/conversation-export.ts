import { distinctPaths } from '../../../../shared/distinct-paths';
import { formatPlace } from '../../common/format';
import { CHECK_WORDS } from '../../common/words';
import { chipInfo, type ChipInfo } from './citations';
import { citeNumberer, splitCites } from './remark-cites';
import type { Turn } from './turn';

/**
 * A conversation as a Markdown document a person can keep or share: each question, its answer
 * with the `[chunk-id]` markers turned into the same numbers the chips show, and a Sources
 * section saying where each number points (file, heading, lines or pages) and how well it held up.
 */
export function conversationToMarkdown(turns: readonly Turn[], when: Date = new Date()): string {
  const out = [`# Quire conversation`, '', `Exported ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC.`, ''];
  for (const turn of turns) {
    if (turn.running) continue;
    out.push(`## ${oneLine(turn.question)}`, '');
    if (turn.result?.refused) {
      out.push('_Not answered: the notes do not say._', '');
      continue;
    }
    const next = citeNumberer();
    const sources = new Map<number, ChipInfo>();
    const answer = splitCites(turn.text, next)
      .map((part) => {
        if (typeof part === 'string') return part;
        sources.set(part.n, chipInfo(part, turn.result?.citations ?? null, turn.candidates));
        return `[${part.n}]`;
      })
      .join('');
    out.push(answer.trim() || '_No answer._', '');
    if (sources.size > 0) {
      out.push('### Sources', '');
      const listed = [...sources].sort(([a], [b]) => a - b);
      // One file name in two folders would read alike: each named with as much of its folder as tells them apart.
      const names = distinctPaths(listed.map(([, info]) => ({ root: turn.candidates.find((c) => c.chunkId === info.chunkId)?.root ?? '', path: info.path ?? '' })));
      listed.forEach(([n, info], i) => out.push(`${n}. ${sourceLine(info, turn, names[i]!)}`));
      out.push('');
    }
  }
  return out.join('\n');
}

function sourceLine(info: ChipInfo, turn: Turn, name: string): string {
  if (!info.path) return `\`${info.chunkId}\` — not among the passages sent`;
  const heading = turn.candidates.find((c) => c.chunkId === info.chunkId)?.heading;
  const parts = [`\`${name}\``, heading ? `“${heading}”` : null, formatPlace(info.lines, info.pages), info.check === 'pending' ? null : CHECK_WORDS[info.check]];
  return parts.filter(Boolean).join(' — ');
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** "quire-conversation-2025-01-31-1402.md" */
export function conversationFileName(when: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `quire-conversation-${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}-${pad(when.getHours())}${pad(when.getMinutes())}.md`;
}
