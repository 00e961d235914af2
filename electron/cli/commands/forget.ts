import { plural } from '../../../shared/plural';
import type { CliContext } from '../context';

/** Removes a collection and everything derived from it; the folder itself is never touched. */
export async function forgetCommand(ctx: CliContext, folder: string): Promise<number> {
  const { root, documents, evalIndexes, warnings } = await ctx.engine.forgetFolder(folder);
  const indexes = `${evalIndexes} evaluation index${evalIndexes === 1 ? '' : 'es'}`;
  if (documents === null) {
    ctx.out.result({ root, documents: 0, evalIndexes }, () => `${folder} is not an imported folder; removed ${indexes} built for it.`);
    return 0;
  }
  // A warning comes after the folder was removed: the forget succeeded (exit 0), and says so.
  ctx.out.result({ root, documents, evalIndexes, warnings }, () =>
    [`Forgot ${root}: ${plural(documents, 'document')} and everything derived from ${documents === 1 ? 'it' : 'them'} removed from the index${evalIndexes ? `, and ${indexes}` : ''}.`, ...warnings.map((w) => `Warning: ${w.message}`)].join('\n'),
  );
  return 0;
}
