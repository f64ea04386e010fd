// Imported first by extension.ts, before any module that builds a zod schema (zod reads this when it builds one).
import { z } from 'zod';

/**
 * zod compiles a parser for each object schema with `new Function` on its first parse. The extension host parses each
 * schema a few times (settings, table rows), so compiling costs more than it saves: the first load of the tables and
 * settings took 60–86 ms of CPU with it and 40–58 ms without (plain Node, 2026-12-02 04:25 UTC, load ≈ 10), in
 * steps that each hold the host's thread. The analysis worker and the CLI keep the default. Same results either way
 * (tableRows.test.ts).
 */
z.config({ jitless: true });
