import { describe, expect, it } from 'vitest';
import { contextualText } from './chunkers/index';
import { embeddingInput } from './embedding-input';

describe('embeddingInput', () => {
  it('gives the model the passage as read: link text without its address, no reference definitions', () => {
    const chunk = {
      headingPath: 'Guide > [Mongo](https://github.com/fastify/fastify-mongodb)',
      text: 'See [the probes guide](https://kubernetes.io/docs/tasks/configure-liveness-readiness-startup-probes/) and [errors][ch09].\n\n[ch09]: ch09-00-error-handling.html\n[ch10]: ch10-00-generics.html\n\n\n\nEnd.',
    };
    const input = embeddingInput(chunk);
    expect(input.title).toBe('Guide > Mongo');
    expect(input.text).toBe('Guide > Mongo\n\nSee [the probes guide] and [errors].\n\nEnd.');
    expect(input.text.length).toBeLessThan(contextualText(chunk).length);
  });

  it('leaves code, bare URLs and plain text exactly as written', () => {
    const chunk = { headingPath: 'T > Use', text: 'Call `handlers[i](req)`:\n\n```js\nconst x = a[0](b)\n```\n\nDocs at https://example.com/a-b.' };
    expect(embeddingInput(chunk)).toEqual({ title: 'T > Use', text: contextualText(chunk) });
  });
});
