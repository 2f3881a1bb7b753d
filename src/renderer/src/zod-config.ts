import { z } from 'zod';

// The page's CSP forbids eval: keep zod off its `new Function` fast path (even probing for it is reported as a
// CSP violation). Imported first by main.tsx, before any schema is used.
z.config({ jitless: true });
