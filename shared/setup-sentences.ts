import { formatSize } from './setup-models';
import type { SetupStatus } from './setup';

/**
 * First run's words, said the same way by the app's welcome and `quire setup`: what stands in the
 * way, and what to do about it on this operating system. Commands are given as they are typed.
 */

type Platform = SetupStatus['platform'];

/** How to install Ollama and start it, on this operating system, in a sentence or two. */
export function installSteps(platform: Platform): string {
  switch (platform) {
    case 'linux':
      return 'Install it with: curl -fsSL https://ollama.com/install.sh | sh — then start it with: ollama serve';
    case 'darwin':
      return 'Install the Ollama app from https://ollama.com/download and open it (or: brew install ollama, then: ollama serve).';
    case 'win32':
      return 'Install Ollama with the installer from https://ollama.com/download; it starts by itself and waits in the taskbar.';
    default:
      return 'Install Ollama from https://ollama.com/download and start it.';
  }
}

/** Where the host came from, as a parenthesis after it. */
export function hostOrigin(source: SetupStatus['ollama']['hostSource']): string {
  return source === 'saved' ? 'the Ollama host saved in Settings' : source === 'environment' ? 'from OLLAMA_HOST' : "Ollama's default address";
}

/** "http://127.0.0.1:11434 (Ollama's default address)". */
export function hostPhrase(ollama: SetupStatus['ollama']): string {
  return `${ollama.host} (${hostOrigin(ollama.hostSource)})`;
}

/** What works without Ollama: importing and keyword search. */
export const KEYWORD_ONLY =
  'Without Ollama, Quire still imports your notes and finds passages by their words (keyword search); answers, and search by meaning, need Ollama and its models.';

/** The one line that says where things stand. */
export function setupHeadline(s: SetupStatus): string {
  const at = hostPhrase(s.ollama);
  const version = s.ollama.version ? ` ${s.ollama.version}` : '';
  switch (s.state) {
    case 'unreachable':
      // No host at all: OLLAMA_HOST is not an address (the message names it).
      if (!s.ollama.host) return `The Ollama host could not be read: ${s.ollama.error?.message ?? 'no address'}`;
      // Only "nothing answers" is fixed by installing or starting it; a certificate, a proxy, a hang is not.
      return s.ollama.error && s.ollama.error.code !== 'OLLAMA_UNREACHABLE'
        ? `Ollama at ${at} could not be used: ${s.ollama.error.message}`
        : `Ollama is not running at ${at}, or is not installed.`;
    case 'no-models':
      return `Ollama${version} is running at ${at}, but has no models yet.`;
    case 'missing': {
      const lacking = [s.chat, s.embedding].filter((m) => !m.installed).map((m) => `${m.name} (the ${m === s.chat ? 'chat' : 'embedding'} model)`);
      return `Ollama${version} is running at ${at}, but does not have ${lacking.join(' or ')} yet.`;
    }
    case 'ready':
      return `Ready: Ollama${version} at ${at} has ${s.chat.name} and ${s.embedding.name}.`;
  }
}

/** What to do next, a sentence each; empty when ready. */
export function setupSteps(s: SetupStatus): string[] {
  if (s.state === 'ready') return [];
  if (s.state === 'unreachable') {
    if (s.ollama.error && s.ollama.error.code !== 'OLLAMA_UNREACHABLE') return [KEYWORD_ONLY];
    const elsewhere = s.ollama.hostSource === 'default' ? 'If Ollama runs on another computer, set OLLAMA_HOST or the Ollama host in Settings.' : `If Ollama runs somewhere else, change ${s.ollama.hostSource === 'saved' ? 'the Ollama host in Settings' : 'OLLAMA_HOST'}.`;
    return [installSteps(s.platform), elsewhere, KEYWORD_ONLY];
  }
  const steps: string[] = [];
  for (const [kind, m] of [['chat', s.chat], ['embedding', s.embedding]] as const) {
    if (m.installed) continue;
    const role = kind === 'chat' ? 'answers questions' : 'lets search find passages by meaning';
    if (m.recommended) {
      const differs = m.recommended.name !== m.name.replace(/:latest$/, '');
      // The why names the download's size.
      steps.push(`Pull ${m.recommended.name}, which ${role}${differs ? ` in place of ${m.name}` : ''}: ${m.recommended.why}`);
    } else {
      steps.push(`Pull ${kind === 'chat' ? 'a chat' : 'an embedding'} model: ${s.machine.freeDiskBytes !== null ? `only ${formatSize(s.machine.freeDiskBytes)} is free on disk, not enough for the smallest Quire suggests; free some space, or ` : ''}pull one yourself with: ollama pull <model>`);
    }
    if (m.alternatives.length > 0) steps.push(`Or use one already installed: ${m.alternatives.join(', ')} (as the ${kind} model in Settings).`);
  }
  if (!s.chat.installed) steps.push('Until there is a chat model, Quire finds passages but cannot answer.');
  return steps;
}
