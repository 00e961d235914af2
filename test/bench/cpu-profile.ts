/**
 * A V8 CPU profile (`node --cpu-prof`) summarised by self time: the top functions, and the same
 * time summed by module (an npm package, Node's own internals, or one of Quire's bundle files), to
 * see what a short run spends its time loading. Node's own work is charged to the script that
 * called it, so compiling a package counts under the package (or whoever imported it).
 *
 *   npx tsx test/bench/cpu-profile.ts run.cpuprofile [--top 15]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  functions: Array<{ name: string; ms: number }>;
  modules: Array<{ name: string; ms: number }>;
}

/** The package a script belongs to (the last node_modules/… in its path), else what it is. */
export function moduleOf(url: string): string {
  if (url === '') return '(native or V8)';
  if (url.startsWith('node:')) return 'node internals';
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0) return parts[at + 1]!.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]!;
  return path.relative(process.cwd(), file) || file;
}

export function summariseProfile(profile: Profile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Node's own work (compiling, reading files) is charged to the nearest script that called it:
  // loading a package's files then counts as that package's (or its importer's) time.
  const owner = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      if (url && !url.startsWith('node:')) return moduleOf(url);
    }
    const { functionName, url } = byId.get(id)!.callFrame;
    return url ? moduleOf(url) : functionName.startsWith('(') ? functionName : '(native or V8)';
  };
  const self = new Map<number, number>();
  // timeDeltas[i] is the time before sample i: it is charged to the node sampled then.
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url ? ` ${moduleOf(url)}:${lineNumber + 1}` : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
    const mod = owner(id);
    modules.set(mod, (modules.get(mod) ?? 0) + us);
    total += us;
  }
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10 }));
  return { totalMs: Math.round(total / 100) / 10, functions: ranked(functions), modules: ranked(modules) };
}

export function formatSummary(s: ProfileSummary): string {
  const rows = (xs: ProfileSummary['functions']) => xs.map((x) => `  ${x.ms.toFixed(1).padStart(7)} ms  ${x.name}`);
  return [`${s.totalMs} ms sampled`, 'by self time:', ...rows(s.functions), 'by module (with the Node work it called):', ...rows(s.modules)].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '15' } } });
  if (positionals.length !== 1) throw new Error('usage: cpu-profile.ts <file.cpuprofile> [--top N]');
  process.stdout.write(`${formatSummary(summariseProfile(JSON.parse(fs.readFileSync(positionals[0]!, 'utf8')) as Profile, Number(values.top)))}\n`);
}
