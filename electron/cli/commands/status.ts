import type { CliContext } from '../context';

export async function statusCommand(ctx: CliContext): Promise<number> {
  const status = ctx.engine.indexStatus();
  const gateway = ctx.engine.gateway();
  let ollama: { host: string; version: string | null; error: string | null };
  try {
    ollama = { host: gateway.host, version: await gateway.version(AbortSignal.any([ctx.signal, AbortSignal.timeout(3000)])), error: null };
  } catch (e) {
    ollama = { host: gateway.host, version: null, error: (e as Error).message };
  }
  const result = { database: ctx.dbPath, embedModel: ctx.engine.settings.get('embedModel'), ollama, ...status };
  ctx.out.result(result, () => {
    const d = status.documents;
    const lines = [
      `Database:    ${ctx.dbPath} (schema v${status.schemaVersion}${status.sizeBytes !== null ? `, ${(status.sizeBytes / 1024 / 1024).toFixed(1)} MB` : ''})`,
      `Ollama:      ${ollama.version ? `connected at ${ollama.host} (version ${ollama.version})` : `not running at ${ollama.host} — keyword search only. Start it with "ollama serve".`}`,
      `Embed model: ${result.embedModel}${status.activeModel ? ` (vectors from ${status.activeModel.name}, ${status.activeModel.dimension} dims, ${status.activeModel.vectors} vectors)` : ' (no vectors yet)'}`,
      `Documents:   ${d.total} (${d.ready} ready, ${d.needsEmbedding} need embedding, ${d.skipped} skipped, ${d.error} failed)`,
      `Chunks:      ${status.chunks}`,
    ];
    if (status.collections.length > 0) {
      lines.push('Folders:');
      for (const c of status.collections) lines.push(`  ${c.root} (${c.documents} documents)`);
    } else {
      lines.push('No folders imported yet. Try: npm run quire -- import ~/notes');
    }
    return lines.join('\n');
  });
  return 0;
}
