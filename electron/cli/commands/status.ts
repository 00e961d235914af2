import { hostOrigin, ollamaNotRunning, unreachableAdvice } from '../../../shared/ollama-state';
import type { CliContext } from '../context';
import type { IndexStatus } from '../../core/engine';

/** How dense search reads the table, with the measured oversampling and the recall it reached. */
function denseLine(d: NonNullable<IndexStatus['activeModel']>['dense']): string {
  const calibration = d.oversampling !== null && d.recallAt10 !== null ? `; oversampling ×${d.oversampling}, sampled recall@10 ${d.recallAt10.toFixed(3)}` : '';
  return d.method === 'quantized' ? d.reason : d.reason + calibration;
}

export async function statusCommand(ctx: CliContext): Promise<number> {
  const status = ctx.engine.indexStatus();
  // Ollama's state as the status bar shows it: the same check, so the two never disagree.
  const ollama = await ctx.engine.ollamaState();
  // How saved header values are kept at rest, and those not sent because they cannot be opened here (never a value).
  const saved = ctx.engine.settings.view().ollamaHeaders.filter((h) => h.source === 'settings');
  const headerStorage = ctx.engine.settings.headerStorage();
  const result = { database: ctx.dbPath, chatModel: ctx.engine.settings.get('chatModel'), embedModel: ctx.engine.settings.get('embedModel'), ollama, savedHeaders: { ...headerStorage, unreadable: saved.filter((h) => h.unreadable).map((h) => h.name) }, ...status };
  ctx.out.result(result, () => {
    const d = status.documents;
    const lines = [
      `Database:    ${ctx.dbPath} (schema v${status.schemaVersion}${status.sizeBytes !== null ? `, ${(status.sizeBytes / 1024 / 1024).toFixed(1)} MB` : ''})`,
      `Ollama:      ${ollama.version ? `connected at ${ollama.host} (version ${ollama.version})` : ollamaNotRunning(ollama) ? `not running at ${ollama.host}${ollama.hostSource ? ` (${hostOrigin(ollama.hostSource)})` : ''} — keyword search only. ${unreachableAdvice(ollama.hostSource)}` : `not connected — keyword search only. ${ollama.error ?? ''}`.trimEnd()}`,
      ...(ollama.remote ? [`             another machine: questions and document text are sent to ${ollama.host}`] : []),
      ...(ollama.headers.length > 0 ? [`             request headers: ${ollama.headers.join(', ')} (values not shown)`] : []),
      ...(saved.length > 0 ? [`             saved headers: ${headerStorage.detail}`] : []),
      ...saved.filter((h) => h.unreadable && !ollama.headers.some((n) => n.toLowerCase() === h.name.toLowerCase())).map((h) => `             not sent: ${h.name} (its saved value cannot be opened here; see the note above)`),
      `Chat model:  ${result.chatModel}`,
      `Embed model: ${result.embedModel}${status.activeModel ? ` (vectors from ${status.activeModel.name}, ${status.activeModel.dimension} dims, ${status.activeModel.vectors} vectors)` : ' (no vectors yet)'}`,
      ...(status.activeModel ? [`Vector search: ${denseLine(status.activeModel.dense)}`] : []),
      `Documents:   ${d.total} (${d.ready} ready, ${d.needsEmbedding} need embedding, ${d.skipped} skipped, ${d.error} failed)`,
      `Chunks:      ${status.chunks}`,
    ];
    if (status.failed.length > 0) {
      lines.push(`Failed:${d.error > status.failed.length ? ` the first ${status.failed.length} of ${d.error}` : ''}`);
      for (const f of status.failed) lines.push(`  ${f.folder}/${f.path}: ${f.message ?? f.code ?? 'failed'}`);
    }
    if (status.collections.length > 0) {
      lines.push('Folders:');
      // The name is what --collection takes.
      for (const c of status.collections) lines.push(`  ${c.name}: ${c.root} (${c.documents} ${c.documents === 1 ? 'document' : 'documents'})`);
    } else {
      lines.push(`No folders imported yet. Try: ${ctx.program} import ~/notes`);
    }
    return lines.join('\n');
  });
  return 0;
}
