import { createInterface } from 'node:readline';
import type { SetupStatus, SetupVerify } from '../../../shared/setup';
import { formatSize } from '../../../shared/setup-models';
import { setupHeadline, setupSteps } from '../../../shared/setup-sentences';
import type { CliContext } from '../context';

type Input = NodeJS.ReadableStream & { isTTY?: boolean | undefined };

interface Pulled {
  kind: 'chat' | 'embedding';
  model: string;
  /** Saved as the setting, in place of the one Settings named. */
  saved: boolean;
}

/**
 * `quire setup`: first run from the command line. Says where things stand (the same sentences as
 * the app's welcome), pulls each missing model once the person says yes (or --yes), tries one
 * embedding and one short answer, and ends with the next thing to type. --check only says where
 * things stand. Exit 0 when an answer can be given with both models, 1 otherwise.
 */
export async function setupCommand(ctx: CliContext, flags: { yes: boolean; check: boolean }, stdin: Input): Promise<number> {
  const { out } = ctx;
  let status = await ctx.engine.call('setupStatus', {});
  const say = (lines: string[]) => {
    if (!out.json) out.stream(`${lines.join('\n')}\n`);
  };
  say([setupHeadline(status), ...setupSteps(status).map((s) => `  ${s}`)]);
  if (flags.check) {
    out.result({ status }, () => (status.state === 'ready' ? 'Ready.' : `Not ready: run ${ctx.program} setup to fix what is missing.`));
    return status.state === 'ready' ? 0 : 1;
  }

  const pulled: Pulled[] = [];
  if (status.state === 'no-models' || status.state === 'missing') {
    const asker = !flags.yes && !out.json && stdin.isTTY === true ? lineReader(stdin, ctx.signal) : null;
    try {
      for (const kind of ['chat', 'embedding'] as const) {
        const wanted = status[kind];
        const model = wanted.recommended;
        if (wanted.installed || !model) continue;
        const offer = `${model.name} (${formatSize(model.downloadBytes)} download)`;
        if (!flags.yes) {
          if (!asker) {
            out.note(`Not pulling ${offer}: rerun with --yes to pull it (${ctx.program} setup --yes), or pull it yourself: ollama pull ${model.name}`);
            continue;
          }
          out.prompt(`Pull ${offer}, the ${kind} model? [y/N] `);
          if (!/^y(es)?$/i.test((await asker.next()).trim())) continue;
        }
        const differs = model.name !== wanted.name.replace(/:latest$/, '');
        const r = await ctx.engine.pullModel(model.name, {
          signal: ctx.signal,
          saveAs: differs ? (kind === 'chat' ? 'chatModel' : 'embedModel') : undefined,
          onProgress: (p) => out.progress(p.total ? (p.completed ?? 0) / p.total : 0, `${model.name}: ${p.total ? `${formatSize(p.completed ?? 0)} of ${formatSize(p.total)}` : p.status}`),
        });
        out.endProgress();
        pulled.push({ kind, model: model.name, saved: r.saved });
        out.note(`Pulled ${model.name}${r.saved ? `, now the ${kind} model in Settings (in place of ${wanted.name})` : ''}.`);
      }
    } finally {
      asker?.close();
    }
    if (pulled.length > 0) status = await ctx.engine.call('setupStatus', {});
  }

  const verify = status.state === 'ready' ? await ctx.engine.call('verifySetup', {}) : null;
  if (verify) say(verifyLines(verify));
  const next = await nextStep(ctx, status, verify);
  out.result({ status, pulled, verify }, () => next);
  return status.state === 'ready' && verify?.embedding.ok && verify.chat.ok ? 0 : 1;
}

function verifyLines(v: SetupVerify): string[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const e = v.embedding;
  const c = v.chat;
  return [
    e.ok ? `Embedding: ${e.model} gave a vector of ${e.dimension} numbers in ${seconds(e.ms)}.` : `Embedding with ${e.model} failed (${e.error?.code}): ${e.error?.message}`,
    c.ok ? `Answer: ${c.model} replied in ${seconds(c.ms)}: ${JSON.stringify(c.reply ?? '')}` : `Answer with ${c.model} failed (${c.error?.code}): ${c.error?.message}`,
  ];
}

/** What to type next: fix what is missing, or import, or ask. */
async function nextStep(ctx: CliContext, s: SetupStatus, v: SetupVerify | null): Promise<string> {
  const p = ctx.program;
  if (s.state === 'unreachable') return `Next: once Ollama is running, run ${p} setup again. Meanwhile: ${p} import <folder>, then ${p} search "…" (keyword search).`;
  if (s.state !== 'ready') {
    const names = [s.chat, s.embedding].flatMap((m) => (!m.installed && m.recommended ? [m.recommended.name] : []));
    return names.length > 0 ? `Next: ${p} setup --yes pulls ${names.join(' and ')} (or pull ${names.length > 1 ? 'them' : 'it'} yourself: ollama pull ${names.join(', ollama pull ')}).` : `Next: free some disk space, then run ${p} setup again.`;
  }
  if (v && !(v.embedding.ok && v.chat.ok)) return `Next: fix what failed above, then run ${p} setup again.`;
  const sample = await ctx.engine.call('sampleNotes', {});
  const question = sample.questions[0] ?? 'What do my notes say about …?';
  if (s.documents > 0) return `Ready. Ask: ${p} ask ${JSON.stringify(question)}`;
  const tryThem = sample.path ? ` (or try the sample notes: ${p} import ${quoted(sample.path)})` : '';
  return `Ready. Next: ${p} import <folder>${tryThem}, then: ${p} ask ${JSON.stringify(question)}`;
}

const quoted = (path: string) => (/^[\w./~:-]+$/.test(path) ? path : JSON.stringify(path));

/** Lines typed at the terminal, one per question; an ended input reads as "no". */
function lineReader(input: Input, signal: AbortSignal): { next(): Promise<string>; close(): void } {
  const rl = createInterface({ input, terminal: false });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let ended = false;
  rl.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)));
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w('');
  });
  return {
    next: () =>
      new Promise<string>((resolve, reject) => {
        if (signal.aborted) return reject(new DOMException('Cancelled', 'AbortError'));
        if (lines.length > 0) return resolve(lines.shift()!);
        if (ended) return resolve('');
        signal.addEventListener('abort', () => reject(new DOMException('Cancelled', 'AbortError')), { once: true });
        waiting.push(resolve);
      }),
    close: () => rl.close(),
  };
}
