import { z } from 'zod';
import { endpointConfigSchema } from './bench/endpoints';
import { tableFileSchema } from './estimate/schemas';
import { ROW_SCHEMAS } from './estimate/tables';

/**
 * JSON schemas for the files users edit by hand, generated from the zod schemas that read them
 * (`npm run schemas` writes schemas/*.schema.json; a unit test keeps the committed files equal).
 * They describe what a user writes (zod's input side: a defaulted field is optional). Every object
 * is closed (additionalProperties: false): the tables loader rejects unknown keys, and the endpoints
 * loader drops them, so the editor flags them in both, since an unknown key is nearly always a
 * misspelt one.
 */

/** Lets a file name its schema and carry a comment; the loaders ignore both keys. */
const schemaKey = { $schema: z.string().optional(), $comment: z.string().optional() };

/** A `--table` / `promptLens.tableFile` file: its shape, with the rows each list holds as the loader checks them. */
const tablesFile = tableFileSchema.extend(
  Object.fromEntries(Object.entries(ROW_SCHEMAS).map(([list, row]) => [list, z.array(row).optional()])),
);

/** The CLI's `--endpoints` file: an array of endpoints, or `{ "endpoints": [...] }` (see loadEndpointsFile). */
const endpointsFile = z.union([
  z.array(endpointConfigSchema),
  z.object({ ...schemaKey, endpoints: z.array(endpointConfigSchema) }),
]);

export const JSON_SCHEMA_FILES = {
  tables: {
    file: 'schemas/tables.schema.json',
    title: 'Prompt Latency Lens tables file (models, hardware, classes, providers)',
    schema: tablesFile,
  },
  endpoints: {
    file: 'schemas/endpoints.schema.json',
    title: 'Prompt Latency Lens endpoints file',
    schema: endpointsFile,
  },
} as const;

export type JsonSchemaName = keyof typeof JSON_SCHEMA_FILES;

/** The JSON schema (draft-07, what VS Code's JSON service reads) of one hand-edited file. */
export function jsonSchemaOf(name: JsonSchemaName): Record<string, unknown> {
  const { schema, title } = JSON_SCHEMA_FILES[name];
  const json = z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === 'object' && jsonSchema.additionalProperties === undefined)
        jsonSchema.additionalProperties = false;
    },
  });
  return { ...json, title };
}

/** The text `npm run schemas` writes for one schema (two-space JSON, final newline). */
export function jsonSchemaText(name: JsonSchemaName): string {
  return `${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`;
}
