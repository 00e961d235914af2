import type { CliContext } from '../context';

/** Stored conversations, newest first (the app's sidebar); `filter` keeps titles containing it. */
export async function conversationsCommand(ctx: CliContext, filter: string | null): Promise<number> {
  const { conversations } = await ctx.engine.call('conversations', filter ? { query: filter } : {});
  ctx.out.result({ conversations }, () => {
    if (conversations.length === 0) return filter ? `No conversation's title contains "${filter}".` : `No conversations yet. Ask a question: ${ctx.program} ask "…"`;
    const width = String(conversations[0]!.id).length;
    const lines = conversations.map((c) => `${String(c.id).padStart(width)}  ${c.updatedAt.slice(0, 16).replace('T', ' ')}  ${c.turnCount} turn${c.turnCount === 1 ? ' ' : 's'}  ${c.title}`);
    return [...lines, '', `Continue one with: ${ctx.program} ask --conversation ID "…"`].join('\n');
  });
  return 0;
}
