import { z } from 'zod';
import { FINDING_CODES } from './types';

const regexSource = z.string().refine(
  (source) => {
    try {
      new RegExp(source, 'g');
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid regular expression' },
);

const settingsSchema = z.object({
  /** Finding codes switched off everywhere (`promptLens.findings.disabled`). */
  disabled: z.array(z.enum(FINDING_CODES)).default([]),
  rag: z
    .object({
      maxTokens: z.number().int().positive().default(4000),
      maxShare: z.number().gt(0).max(1).default(0.6),
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
    })
    .prefault({}),
});

export type FindingSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_FINDING_SETTINGS: FindingSettings = settingsSchema.parse({});

export interface SettingsResult {
  settings: FindingSettings;
  /** One line per rejected field, naming it; that field falls back to its default. */
  problems: string[];
}

/**
 * Validates user settings field by field: a bad field is reported and replaced by its default,
 * the valid ones are kept (one typo must not switch every threshold back to its default).
 */
export function parseFindingSettings(input: unknown): SettingsResult {
  const problems: string[] = [];
  let candidate: unknown;
  try {
    // A copy, because rejected fields are deleted from it.
    candidate = structuredClone(input ?? {});
  } catch {
    return { settings: DEFAULT_FINDING_SETTINGS, problems: ['settings: not plain JSON data'] };
  }
  for (let attempt = 0; attempt < 32; attempt++) {
    const result = settingsSchema.safeParse(candidate);
    if (result.success) return { settings: result.data, problems };
    const issue = result.error.issues[0];
    if (!issue) break;
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    problems.push(`${path.length > 0 ? path.join('.') : 'settings'}: ${issue.message}`);
    if (path.length === 0 || !removeField(candidate, path)) return { settings: DEFAULT_FINDING_SETTINGS, problems };
  }
  return { settings: DEFAULT_FINDING_SETTINGS, problems };
}

/** Drops the top-level-or-nested field an issue points at (arrays lose the whole field). */
function removeField(root: unknown, path: Array<string | number>): boolean {
  const firstIndex = path.findIndex((p) => typeof p === 'number');
  const fieldPath = firstIndex === -1 ? path : path.slice(0, firstIndex);
  if (fieldPath.length === 0) return false;
  let node = root as Record<string, unknown>;
  for (const key of fieldPath.slice(0, -1)) {
    const next = node[key as string];
    if (typeof next !== 'object' || next === null) return false;
    node = next as Record<string, unknown>;
  }
  const last = fieldPath[fieldPath.length - 1] as string;
  if (!(last in node)) return false;
  delete node[last];
  return true;
}
