import { evalModelName, type EvalReport } from '../../../../shared/eval';
import { ANSWERS_LEAD, leadingConfig, RETRIEVAL_LEAD, type SettingChange } from '../../../../shared/eval-settings';
import { formatNumber } from '../../common/format';
import { recutSentence } from '../../common/recut';
import { fullConfigLabel } from './eval-metrics';

/** What "Use these settings" offers: the configurations that measured something, the leaders marked. */
export interface ConfigChoice {
  index: number;
  /** Every setting of the configuration, as the table names configurations. */
  config: string;
  /** The option's text: the settings, and what it leads or that some of its runs failed. */
  label: string;
}

/**
 * Every configuration where not every question run failed (those measured nothing), each named by
 * all its settings and, for the leaders, what they lead; and the one to offer first: the answers'
 * leader when answers were scored, else retrieval's (as leadingConfig ranks them, like the CLI's
 * Best lines).
 */
export function configChoices(report: Pick<EvalReport, 'configs'>, failed: ReadonlySet<number>): { choices: ConfigChoice[]; preferred: number | null } {
  const retrieval = leadingConfig(report.configs, RETRIEVAL_LEAD);
  const answers = report.configs.some((c) => c.chatModel !== null) ? leadingConfig(report.configs, ANSWERS_LEAD) : null;
  const choices = report.configs.flatMap((c, index) => {
    if (failed.has(index)) return [];
    const leads = [index === answers ? 'answers' : null, index === retrieval ? 'retrieval' : null].filter(Boolean);
    const config = fullConfigLabel(c);
    return [{ index, config, label: `${config}${leads.length > 0 ? ` — best ${leads.join(' and ')}` : ''}${c.errors > 0 ? ' — some runs failed' : ''}` }];
  });
  return { choices, preferred: answers ?? retrieval ?? choices[0]?.index ?? null };
}

/** What the index holds, to say what a change costs; null when status could not be read. */
export interface IndexFacts {
  documents: number;
  chunks: number;
  /** The model whose vectors searches use now. */
  activeModel: string | null;
  /** Each stored model's vectors: whether one is complete (a switch to it is then instant). */
  stores: ReadonlyArray<{ name: string; vectors: number; documentsMissing: number }>;
}

/**
 * What happens after the change, in plain words, as the engine does it: a new embedding model is
 * searched once every document has its vectors (at once when they are already stored), a new chunk
 * size is applied at each folder's next import or Re-sync. Nothing when the index is empty.
 */
export function changeNotes(changes: readonly SettingChange[], facts: IndexFacts | null): string[] {
  if (!facts || facts.documents === 0) return [];
  const notes: string[] = [];
  const embed = changes.find((c) => c.key === 'embedModel');
  const chunks = changes.find((c) => c.key === 'chunkTokens');
  if (embed) {
    const to = String(embed.to);
    if (vectorsComplete(facts, to)) notes.push(`Searches switch to ${to}’s vectors at once: every document already has them.`);
    else {
      const until = facts.activeModel ? `Until every document has them, searches keep using ${evalModelName(facts.activeModel)}’s vectors.` : 'Until then, searches use keywords only.';
      notes.push(
        `The vectors of every document must be computed again with ${to} (${facts.documents === 1 ? 'one document' : `${formatNumber(facts.documents)} documents`}): once applied, choose Re-embed now (or run quire embed); a folder’s next import or Re-sync also computes them. No file is read again. ${until}`,
      );
    }
  }
  if (chunks) notes.push(`${recutSentence(facts)} Until then, documents stay cut as they are now.`);
  if (embed && chunks && !vectorsComplete(facts, String(embed.to))) notes.push(`A Re-sync of each folder does both at once: it cuts the documents again and embeds them with ${String(embed.to)}.`);
  return notes;
}

/** The model's vectors are stored for every document: choosing it switches searches to it at once. */
export function vectorsComplete(facts: IndexFacts, model: string): boolean {
  return facts.stores.some((s) => evalModelName(s.name) === evalModelName(model) && s.vectors > 0 && s.documentsMissing === 0);
}
