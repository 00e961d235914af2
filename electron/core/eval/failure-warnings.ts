import type { EvalConfigResult, EvalQuestionRun } from '../../../shared/eval';
import { configLabel } from './diff';

/** How many configurations a sentence names before it only counts the rest. */
const NAMED = 3;

/**
 * One sentence per distinct reason question runs failed, naming the configurations it hit: a
 * report's tables count errors, and without this the reason (a chat model Ollama does not have,
 * Ollama stopping mid-run) was only in each question's JSON. `explained(config, error)` leaves out
 * what another warning already says (an index without vectors).
 */
export function failureWarnings(
  configs: readonly EvalConfigResult[],
  perQuestion: readonly EvalQuestionRun[],
  explained: (config: number, error: { code: string; message: string }) => boolean = () => false,
): string[] {
  const byReason = new Map<string, { runs: number; configs: Set<number> }>();
  for (const q of perQuestion) {
    if (!q.error || explained(q.config, q.error)) continue;
    const seen = byReason.get(q.error.message) ?? { runs: 0, configs: new Set<number>() };
    seen.runs += 1;
    seen.configs.add(q.config);
    byReason.set(q.error.message, seen);
  }
  return [...byReason].map(([message, { runs, configs: hit }]) => {
    const labels = [...hit].map((i) => `“${configLabel(configs[i]!)}”`);
    const where =
      labels.length === 1
        ? `configuration ${labels[0]}`
        : labels.length <= NAMED
          ? `configurations ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`
          : `${labels.length} configurations (${labels.slice(0, NAMED - 1).join(', ')} and ${labels.length - NAMED + 1} more)`;
    return `${runs} question ${runs === 1 ? 'run' : 'runs'} of ${where} failed: ${message}`;
  });
}
