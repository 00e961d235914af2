import { describe, expect, it } from 'vitest';
import { mapOllamaError } from './errors';

const refused = (message: string) => mapOllamaError({ status_code: 400, message }, { host: 'http://gpu-box:11434' }).message;

describe("a refusal's body quoted briefly", () => {
  it('keeps comparison signs that are not HTML tags', () => {
    expect(refused('num_ctx must be < 4096 and > 0')).toBe('Ollama answered 400: num_ctx must be < 4096 and > 0');
    expect(refused('template: :1: unexpected "<" in operand; want a value > 2')).toBe('Ollama answered 400: template: :1: unexpected "<" in operand; want a value > 2');
  });

  it("drops an HTML page's tags, and its style and script text, keeping what it says", () => {
    const page = '<html><head><title>Denied</title><style>body { color: red; }</style><script>var x = 1 < 2;</script></head><body><p>Ask  the admin.</p></body></html>';
    expect(refused(page)).toBe('Ollama answered 400: Denied Ask the admin.');
  });
});
