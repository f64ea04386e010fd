// npm run docs:providers — writes docs/providers.md from the built-in provider rows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTables } from '../src/core/estimate';
import { providersMarkdown } from './prices/providersDoc';

writeFileSync(
  join(__dirname, '..', 'docs', 'providers.md'),
  providersMarkdown([...loadTables().tables.providers.values()]),
);
