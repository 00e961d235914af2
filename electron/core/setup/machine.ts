import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MachineFacts } from '../../../shared/setup-models';
import { isLoopbackHost } from '../ollama/host';

/**
 * Where Ollama keeps its models on this computer, most likely first: OLLAMA_MODELS when set, the
 * person's own ~/.ollama/models (the app, `ollama serve`), and on Linux the service account's that
 * the install script sets up.
 */
export function ollamaModelFolders(env: { OLLAMA_MODELS?: string | undefined }, platform: NodeJS.Platform = process.platform, home = os.homedir()): string[] {
  const set = env.OLLAMA_MODELS?.trim();
  return [...(set ? [set] : []), path.join(home, '.ollama', 'models'), ...(platform === 'linux' ? ['/usr/share/ollama/.ollama/models'] : [])];
}

/**
 * This computer's memory, and the free disk where the models would land: Ollama's model folder
 * when the host is this computer and the folder exists, else the folder Quire's data is in (or the
 * nearest folder above it that exists). Null when the disk cannot be read.
 */
export async function machineFacts(o: { host: string; env: { OLLAMA_MODELS?: string | undefined }; dataDir: string }): Promise<MachineFacts> {
  const local = isLoopbackHost(o.host) ? ollamaModelFolders(o.env).find((f) => fs.existsSync(f)) : undefined;
  return { memoryBytes: os.totalmem(), freeDiskBytes: await freeDisk(local ?? existingAncestor(o.dataDir)) };
}

async function freeDisk(folder: string): Promise<number | null> {
  try {
    const s = await fs.promises.statfs(folder);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

function existingAncestor(folder: string): string {
  let cur = path.resolve(folder);
  while (!fs.existsSync(cur) && path.dirname(cur) !== cur) cur = path.dirname(cur);
  return cur;
}
