// The test-control side of the stand-in: the request log and the fault switches.

export interface Call {
  method: string;
  path: string;
  body: unknown;
  at: number;
}

export class CallLog {
  readonly entries: Call[] = [];
  count(path?: string, method?: string): number {
    return this.entries.filter((c) => (!path || c.path === path) && (!method || c.method === method)).length;
  }
  last(path?: string): Call | undefined {
    return [...this.entries].reverse().find((c) => !path || c.path === path);
  }
  reset(): void {
    this.entries.length = 0;
  }
}

export interface FailNth {
  path: string;
  n: number;
  status?: number;
  message?: string;
}

// Ollama's own text when a runner dies mid-request (llm/server.go), the realistic 500.
export const RUNNER_STOPPED =
  'model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details';

export class Faults {
  latencyMs = 0;
  streamDelayMs = 0;
  /**
   * The context window the runner really uses, whatever the request asked for (a server whose
   * configuration overrides num_ctx, or a proxy that drops options): prompts are cut silently.
   */
  numCtxOverride: number | null = null;
  /**
   * Added to every chat prompt_eval_count: a runner that counts a prompt otherwise than its
   * published vocabulary and template say (a patched build, a template edited after the fact).
   */
  promptEvalOffset = 0;
  /**
   * A hung Ollama (a team's server wedged, a runner stuck): the connection is accepted and the
   * request read and logged, but no reply ever comes, not even headers. `true` hangs every request;
   * a list of paths hangs only those (a stuck runner while the server still answers /api/version).
   * Requests already hanging stay unanswered when it is switched off, as a client that gave up on them would find.
   */
  hang: boolean | readonly string[] = false;
  #failNth: FailNth | null = null;
  #seen = 0;
  get failNth(): FailNth | null {
    return this.#failNth;
  }
  // Counting restarts on assignment so a test can arm the fault right before the call it targets.
  set failNth(f: FailNth | null) {
    this.#failNth = f;
    this.#seen = 0;
  }
  /** @internal Whether a request to `path` gets no reply. */
  hangs(path: string): boolean {
    return typeof this.hang === 'boolean' ? this.hang : this.hang.includes(path);
  }
  /** @internal Called once per request; returns the fault if this request is the nth. */
  take(path: string): FailNth | null {
    const f = this.#failNth;
    if (!f || f.path !== path || ++this.#seen !== f.n) return null;
    this.#failNth = null;
    return f;
  }
}
