/**
 * Whether a disconnected Ollama is simply not running, the one case "start it with ollama serve"
 * fixes. A certificate this computer does not trust, a proxy's refusal or a timeout is reached
 * but fails otherwise, and `error` says how; the status bar and `quire status` both decide here.
 */
export function ollamaNotRunning(ollama: { connected: boolean; errorCode?: string | null | undefined }): boolean {
  return !ollama.connected && (ollama.errorCode == null || ollama.errorCode === 'OLLAMA_UNREACHABLE');
}
