import type { CliContext } from '../context';

/** Removes a collection and everything derived from it; the folder itself is never touched. */
export async function forgetCommand(ctx: CliContext, folder: string): Promise<number> {
  const { root, documents, evalIndexes } = await ctx.engine.forgetFolder(folder);
  const indexes = `${evalIndexes} evaluation index${evalIndexes === 1 ? '' : 'es'}`;
  if (documents === null) {
    ctx.out.result({ root, documents: 0, evalIndexes }, () => `${folder} is not an imported folder; removed ${indexes} built for it.`);
    return 0;
  }
  ctx.out.result({ root, documents, evalIndexes }, () => `Forgot ${root}: ${documents} documents and everything derived from them removed from the index${evalIndexes ? `, and ${indexes}` : ''}.`);
  return 0;
}
