import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineFacts, ollamaModelFolders } from './machine';

describe('where Ollama keeps models', () => {
  it('OLLAMA_MODELS first, then the home folder, then (Linux) the service account the install script makes', () => {
    expect(ollamaModelFolders({ OLLAMA_MODELS: '/big/models' }, 'linux', '/home/ana')).toEqual(['/big/models', '/home/ana/.ollama/models', '/usr/share/ollama/.ollama/models']);
    expect(ollamaModelFolders({ OLLAMA_MODELS: '  ' }, 'darwin', '/Users/ana')).toEqual(['/Users/ana/.ollama/models']);
  });
});

describe('machineFacts', () => {
  it("reads the free disk of a data folder that does not exist yet from the nearest one above it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-machine-'));
    try {
      const f = await machineFacts({ host: 'http://10.0.0.5:11434', env: {}, dataDir: path.join(dir, 'not', 'yet') });
      expect(f.memoryBytes).toBe(os.totalmem());
      const s = await fs.promises.statfs(dir);
      // The same disk, read a moment apart.
      expect(Math.abs(f.freeDiskBytes! - s.bavail * s.bsize)).toBeLessThan(1e9);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
