import type { CliContext } from '../context';

export async function doctorCommand(ctx: CliContext): Promise<number> {
  const checks = ctx.engine.doctor();
  const ok = checks.every((c) => c.ok);
  ctx.out.result({ ok, checks }, () => [...checks.map((c) => `${!c.ok ? 'FAIL' : c.warning ? 'WARN' : 'ok  '}  ${c.name}: ${c.detail}`), ok ? 'All checks passed.' : 'Some checks failed.'].join('\n'));
  return ok ? 0 : 1;
}
