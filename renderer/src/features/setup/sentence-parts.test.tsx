import { describe, expect, it } from 'vitest';
import { installSteps, KEYWORD_ONLY } from '../../../../shared/setup-sentences';
import { SETUP_PLATFORMS } from '../../../../shared/setup';
import { sentenceParts } from './sentence-parts';

const commands = (text: string) => sentenceParts(text).filter((p) => p.kind === 'command').map((p) => p.text);
const links = (text: string) => sentenceParts(text).flatMap((p) => (p.kind === 'link' ? [p.href] : []));

describe('sentenceParts, over the install steps shared/setup-sentences.ts gives', () => {
  it('finds each command to copy, whole', () => {
    expect(commands(installSteps('linux'))).toEqual(['curl -fsSL https://ollama.com/install.sh | sh', 'ollama serve']);
    expect(commands(installSteps('darwin'))).toEqual(['brew install ollama', 'ollama serve']);
    expect(commands(installSteps('win32'))).toEqual([]);
    expect(commands(installSteps('other'))).toEqual([]);
  });

  it('makes the download page a link (not the address inside a command), and loses no text', () => {
    expect(links(installSteps('linux'))).toEqual([]);
    for (const p of ['darwin', 'win32', 'other'] as const) expect(links(installSteps(p))).toEqual(['https://ollama.com/download']);
    for (const p of SETUP_PLATFORMS) expect(sentenceParts(installSteps(p)).map((x) => x.text.replace(/^ollama\.com/, 'https://ollama.com')).join('')).toBe(installSteps(p));
  });

  it('reads no command out of a sentence without any', () => {
    expect(sentenceParts(KEYWORD_ONLY)).toEqual([{ kind: 'text', text: KEYWORD_ONLY }]);
  });
});
