import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// jsdom has no canvas: answer "no 2D context" quietly (instead of its "not implemented" error) so
// charts take their text fallback.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
