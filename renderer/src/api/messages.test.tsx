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
