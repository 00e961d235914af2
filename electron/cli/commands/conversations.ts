import type { CliContext } from '../context';

/** Stored conversations, newest first (the app's sidebar); `filter` keeps titles containing it. */
export async function conversationsCommand(ctx: CliContext, filter: string | null): Promise<number> {
  const { conversations } = await ctx.engine.call('conversations', filter ? { query: filter } : {});
  ctx.out.result({ conversations }, () => {
    if (conversations.length === 0) return filter ? `No conversation's title contains "${filter}".` : `No conversations yet. Ask a question: ${ctx.program} ask "…"`;
    const width = String(conversations[0]!.id).length;
    const lines = conversations.map((c) => `${String(c.id).padStart(width)}  ${localMinute(c.updatedAt)}  ${c.turnCount} turn${c.turnCount === 1 ? ' ' : 's'}  ${c.title}`);
    return [...lines, '', `Continue one with: ${ctx.program} ask --conversation ID "…"`].join('\n');
  });
  return 0;
}

/** "2026-12-01 21:45" in this computer's time zone, as the app's sidebar shows times; the stored ISO time is UTC. */
function localMinute(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
