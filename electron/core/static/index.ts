/** What a shell needs to serve the renderer bundle (browser mode over HTTP, Electron over app://). */
export { CONTENT_SECURITY_POLICY, contentTypeFor } from './renderer-serving';
export { guardStaticPath, staticRelativePath, type GuardedPath } from './static-file-guard';
