import { toErrorShape, type QuireErrorShape } from '../../../shared/errors';
import type { SetupStatus } from '../../../shared/setup';
import { recommendModels, type MachineFacts } from '../../../shared/setup-models';
import { MODEL_LOOKUP, OllamaGateway, withTag, type ModelListing } from '../ollama/gateway';
import { ollamaState } from '../ollama/state';

export interface SetupInputs {
  /** The gateway the app uses; an error when the host itself cannot be read (a bad OLLAMA_HOST). */
  gateway: OllamaGateway | QuireErrorShape;
  hostSource: SetupStatus['ollama']['hostSource'];
  chatModel: string;
  embedModel: string;
  documents: number;
  machine(host: string): Promise<MachineFacts>;
  platform?: NodeJS.Platform;
}

/**
 * First run's one answer: whether Ollama answers at the host, whether it has the two models
 * Settings name (and which installed ones could stand in), and what to pull on this machine.
 */
export async function setupStatus(i: SetupInputs): Promise<SetupStatus> {
  const platform = setupPlatform(i.platform ?? process.platform);
  const g = i.gateway instanceof OllamaGateway ? i.gateway : null;
  let error: { code: string; message: string } | null = g ? null : { code: (i.gateway as QuireErrorShape).code, message: (i.gateway as QuireErrorShape).message };
  let version: string | null = null;
  let models: ModelListing[] | null = null;
  let kinds = new Map<string, 'chat' | 'embedding' | null>();
  if (g) {
    // The status bar's own check, so the welcome and the status bar never disagree on whether Ollama is up.
    const state = await ollamaState(g);
    version = state.version;
    if (state.errorCode) error = { code: state.errorCode, message: state.error ?? '' };
    else {
      try {
        const asked = g.withOptions(MODEL_LOOKUP);
        models = await asked.listModels(undefined, { fresh: true });
        kinds = new Map(await Promise.all(models.map(async (m) => [m.name, await kindOf(asked, m.name)] as const)));
      } catch (e) {
        error = toErrorShape(e);
      }
    }
  }
  const host = g?.host ?? '';
  const installed = (name: string) => models?.some((m) => m.name === withTag(name)) ?? false;
  const chat = { name: i.chatModel, installed: installed(i.chatModel) };
  const embedding = { name: i.embedModel, installed: installed(i.embedModel) };
  const machine = await i.machine(host);
  const recommended = recommendModels(machine, { chat, embedding });
  const alternatives = (kind: 'chat' | 'embedding', wanted: string) =>
    (models ?? []).filter((m) => m.name !== withTag(wanted) && kinds.get(m.name) === kind).map((m) => m.name.replace(/:latest$/, ''));
  const state = models === null ? 'unreachable' : models.length === 0 ? 'no-models' : chat.installed && embedding.installed ? 'ready' : 'missing';
  return {
    state,
    platform,
    ollama: { host, hostSource: i.hostSource, version, error },
    chat: { ...chat, alternatives: alternatives('chat', i.chatModel), recommended: recommended.chat },
    embedding: { ...embedding, alternatives: alternatives('embedding', i.embedModel), recommended: recommended.embedding },
    machine,
    documents: i.documents,
    // Without the embedding model answers still come, from keyword search; without documents, nothing to answer from.
    canAnswer: chat.installed && i.documents > 0,
  };
}

/** What a model does, by Ollama's capabilities; an older Ollama lists none, so then by its name. */
async function kindOf(g: OllamaGateway, name: string): Promise<'chat' | 'embedding' | null> {
  let capabilities: string[];
  try {
    capabilities = (await g.modelInfo(name)).capabilities;
  } catch {
    return null;
  }
  if (capabilities.includes('embedding')) return 'embedding';
  if (capabilities.includes('completion')) return 'chat';
  if (capabilities.length > 0) return null;
  return /embed|minilm|bge|e5-/i.test(name) ? 'embedding' : 'chat';
}

export function setupPlatform(p: NodeJS.Platform): SetupStatus['platform'] {
  return p === 'linux' || p === 'darwin' || p === 'win32' ? p : 'other';
}
