/**
 * Whether a disconnected Ollama is simply not running, the one case "start it with ollama serve"
 * fixes. A certificate this computer does not trust, a proxy's refusal or a timeout is reached
 * but fails otherwise, and `error` says how; the status bar and `quire status` both decide here.
 */
export function ollamaNotRunning(ollama: { connected: boolean; errorCode?: string | null | undefined }): boolean {
  return !ollama.connected && (ollama.errorCode == null || ollama.errorCode === 'OLLAMA_UNREACHABLE');
}

/**
 * Where the Ollama host came from. A host saved in Settings wins over OLLAMA_HOST, which wins over
 * Ollama's default address: one rule for the app and the CLI (so a wrong OLLAMA_HOST can always be
 * put right from the app, and `quire settings` says which one is in use).
 */
export type HostSource = 'saved' | 'environment' | 'default';

/** Where the host came from, as said after it. */
export function hostOrigin(source: HostSource): string {
  return source === 'saved' ? 'the Ollama host saved in Settings' : source === 'environment' ? 'from OLLAMA_HOST' : "Ollama's default address";
}

/** What to do when nothing answers at the host, fitting where the host came from. */
export function unreachableAdvice(source: HostSource | undefined): string {
  switch (source) {
    case 'saved':
      return 'Start it there with "ollama serve", or correct the Ollama host in Settings, which is used over OLLAMA_HOST.';
    case 'environment':
      return 'Start it there with "ollama serve", or correct OLLAMA_HOST; a host saved in Settings would be used over it.';
    case 'default':
      return 'Start it with "ollama serve"; if it runs on another computer, set the Ollama host in Settings or OLLAMA_HOST.';
    default:
      return 'Start it with "ollama serve", or correct the Ollama host (Settings, or OLLAMA_HOST).';
  }
}

/** The sentence for an Ollama that does not answer at its host: where, where that came from, what to do. */
export function unreachableSentence(host: string, source: HostSource | undefined): string {
  return `Ollama is not reachable at ${host}${source ? ` (${hostOrigin(source)})` : ''}. ${unreachableAdvice(source)}`;
}
