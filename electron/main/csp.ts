/**
 * The renderer's Content-Security-Policy, sent with every app:// response and added by the session
 * to any other response. Only the app's own origin (app://quire) is allowed: no remote origins, no
 * inline or evaluated script, no plugins, no framing, no forms. Inline styles stay allowed because
 * React sets style attributes; images may be data: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
