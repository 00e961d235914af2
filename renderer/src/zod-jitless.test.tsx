import { z } from 'zod';
import { expect, it } from 'vitest';

it('zod-jitless turns zod\'s code generation off, so the page never tries new Function under its CSP', async () => {
  expect(z.config().jitless).not.toBe(true);
  await import('./zod-jitless');
  expect(z.config().jitless).toBe(true);
});
