/** Content types for app:// responses: one table, shared with browser mode. */
export { contentTypeFor } from '../../shared/renderer-serving';
