// Run from source (tsx, vitest), a worker thread does not inherit the TypeScript loader: register
// tsx here, then load the worker. The Electron build bundles worker-main.ts to JavaScript instead.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
