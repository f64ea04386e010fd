import { z } from 'zod';
import { regexSource } from '../settings/fields';
import { keepValid } from '../settings/keepValid';
import { FINDING_CODES } from './types';

export const findingSettingsSchema = z.object({
  /** Finding codes switched off everywhere (`promptLens.findings.disabled`). */
  disabled: z.array(z.enum(FINDING_CODES)).default([]),
  rag: z
    .object({
      maxTokens: z.number().int().positive().default(4000),
      maxShare: z.number().gt(0).max(1).default(0.6),
      /**
       * The share rule applies only to regions of at least this many tokens: 300 tokens of context
       * in a 400-token prompt are 75% of it and still cost next to nothing.
       */
      shareMinTokens: z.number().int().nonnegative().default(1000),
      /** XML-like tags whose blocks hold retrieved text. */
      tags: z
        .array(z.string().regex(/^[A-Za-z_][\w.-]*$/, 'must be a tag name'))
        .default([
          'context',
          'documents',
          'document',
          'search_results',
          'search_result',
          'retrieved',
          'sources',
          'source',
          'passages',
          'chunks',
        ]),
      /** Markdown headings (first words, case-insensitive) that start a retrieved section. */
      headings: z.array(z.string().min(1)).default(['Context', 'Documents', 'Sources', 'Retrieved']),
      /** Template variables whose names match this are retrieval slots (sized from sample data). */
      slotPattern: regexSource.default(
        'context|documents?|docs|sources|retrieved|retrieval|chunks|passages|search_results',
      ),
      /** Extra regions: every match of this regular expression (multiline). */
      pattern: regexSource.optional(),
      /** Jaccard similarity of word shingles from which two chunks count as near-duplicates. */
      duplicateSimilarity: z.number().gt(0).max(1).default(0.8),
      /** Chunks shorter than this are never reported as duplicates. */
      minChunkTokens: z.number().int().nonnegative().default(20),
    })
    .prefault({}),
  cache: z
    .object({
      /**
       * Shared prefixes below this are not reported even where the engine caches them (a 16-token
       * vLLM block saves nothing worth a finding); the provider's own minimum applies on top.
       */
      minSharedTokens: z.number().int().positive().default(1024),
      /** Largest differing piece (tokens, each side) a near miss may have. */
      nearMissMaxGap: z.number().int().positive().max(256).default(32),
      /** Text the user declares dynamic (regular expressions), besides template variables and retrieval slots. */
      dynamicPatterns: z.array(regexSource).default([]),
      /** Opt-in `dynamic-hint` findings: literal dates, ids, names that look like values one may template later. */
      dynamicHints: z.boolean().default(false),
    })
    .prefault({}),
  instructions: z
    .object({
      /** Always-on instructions (prepended to every chat request) over this many tokens are a warning. */
      maxTokens: z.number().int().positive().default(4000),
    })
    .prefault({}),
});

export type FindingSettings = z.infer<typeof findingSettingsSchema>;

export const DEFAULT_FINDING_SETTINGS: FindingSettings = findingSettingsSchema.parse({});

export interface SettingsResult {
  settings: FindingSettings;
  /** One line per rejected field or item (`rag.maxTokens: …`); a field falls back to its default. */
  problems: string[];
}

/** Finding settings from flags or tests, under the settings policy (keepValid). */
export function parseFindingSettings(input: unknown): SettingsResult {
  const { value, problems } = keepValid(findingSettingsSchema, input);
  return { settings: value, problems: problems.map((p) => `${p.path}: ${p.message}`) };
}
