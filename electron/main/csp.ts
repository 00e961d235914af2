/** The renderer's Content-Security-Policy: one definition, shared with browser mode. */
export { CONTENT_SECURITY_POLICY } from '../../shared/renderer-serving';
