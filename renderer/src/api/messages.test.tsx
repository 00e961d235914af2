import { describe, expect, it } from 'vitest';
import { describeError } from './messages';

describe('the sentence for an error code', () => {
  // A chat model saved as the embedding model (or the reverse) was INVALID_ARGUMENT: "Quire could not accept that input."
  it('WRONG_MODEL_KIND says the model is the wrong kind for the setting, with the engine\'s words naming it under it', () => {
    const shown = describeError({ code: 'WRONG_MODEL_KIND', message: 'Embedding model "llama3.2" was not saved: it is a chat model, not an embedding model (Ollama lists its capabilities as completion, tools).' });
    expect(shown.sentence).toMatch(/^That model is the wrong kind for this setting: /);
    expect(shown.detail).toContain('"llama3.2" was not saved');
  });
});

describe('an error said once', () => {
  it('Ollama\'s connection errors: the engine\'s words alone (they name the host), not the same sentence twice', () => {
    const message = 'Ollama is not reachable at http://127.0.0.1:21436. Start it with "ollama serve", or set OLLAMA_HOST.';
    const shown = describeError({ code: 'OLLAMA_UNREACHABLE', message });
    expect(shown).toEqual({ code: 'OLLAMA_UNREACHABLE', sentence: message, detail: null });
  });

  it('keeps the code\'s sentence with the engine\'s words under it when they say something else', () => {
    const shown = describeError({ code: 'CORRUPT_FILE', message: 'notes/plan.docx: end of central directory record signature not found' });
    expect(shown.sentence).toBe('The file is damaged or not the type its name says, so Quire cannot read it.');
    expect(shown.detail).toBe('notes/plan.docx: end of central directory record signature not found');
  });

  it('an unknown code shows the engine\'s words as the sentence', () => {
    expect(describeError({ code: 'SOMETHING_NEW', message: 'A newer engine said this.' })).toEqual({ code: 'SOMETHING_NEW', sentence: 'A newer engine said this.', detail: null });
  });

  it('no sentence for people carries Markdown\'s backticks', async () => {
    const { ERROR_MESSAGES } = await import('./messages');
    expect(Object.entries(ERROR_MESSAGES).filter(([, s]) => s.includes('`'))).toEqual([]);
  });
});

it('a library\'s terse words under an Ollama code keep the general sentence, with them as detail', () => {
  expect(describeError({ code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:11434' })).toEqual({
    code: 'OLLAMA_UNREACHABLE',
    sentence: 'Ollama is not running or cannot be reached. Start it with "ollama serve".',
    detail: 'connect ECONNREFUSED 127.0.0.1:11434',
  });
});
