import { z } from 'zod';

/**
 * zod compiles fast parsers with `new Function` when it may. The page's Content-Security-Policy
 * forbids that (no 'unsafe-eval'), so the attempt could only fail and be reported as a violation;
 * jitless never makes it. Imported first by main.tsx, before any schema parses.
 */
z.config({ jitless: true });
