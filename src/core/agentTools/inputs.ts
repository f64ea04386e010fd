// What an agent may send each tool: one zod schema per tool, read by both adapters (the MCP server
// and the editor's language-model tools), so a malformed call is refused the same way everywhere.
import { z } from 'zod';
import { sloSchema } from '../compare/profiles';
import { TOKENIZER_IDS } from '../tokenize/types';

const path = z
  .string()
  .min(1, { error: 'must name a file' })
  .max(4096, { error: 'must be at most 4,096 characters' })
  .describe('Path of a prompt file, relative to the workspace root (or absolute inside it).');

const targetId = z
  .string()
  .min(1)
  .max(200)
  .describe("A target id: a provider row 'PROVIDER/MODEL' (e.g. openai/gpt-4o) or self-hosted 'MODEL@GPUSxHARDWARE'.");

const scenario = sloSchema.describe(
  'The workload the figures assume (overrides the file front matter field by field): profile interactive|batch, ' +
    'ttftMs/tpotMs SLO limits, concurrency, outputTokens.',
);

export const analyzePromptInput = z
  .object({
    path,
    targets: z
      .array(targetId)
      .min(1)
      .max(8)
      .optional()
      .describe('Targets to estimate for, primary first; default: the configured targets.'),
    scenario: scenario.optional(),
  })
  .strict();
export type AnalyzePromptInput = z.infer<typeof analyzePromptInput>;

export const compareTargetsInput = z
  .object({
    path,
    scenario: scenario.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('Rows to return (best first); default 10.'),
  })
  .strict();
export type CompareTargetsInput = z.infer<typeof compareTargetsInput>;

export const workspaceReportInput = z
  .object({
    dir: path.optional().describe('Folder to report on, under the workspace root; default: the root.'),
    target: targetId.optional().describe('Target the findings are priced on; default: the primary target.'),
    limit: z.number().int().min(1).max(200).optional().describe('Findings to return, worst first; default 20.'),
  })
  .strict();
export type WorkspaceReportInput = z.infer<typeof workspaceReportInput>;

export const countInput = z
  .object({
    path,
    tokenizer: z.enum(TOKENIZER_IDS).optional().describe('Tokenizer to count with; default: the front matter model’s.'),
    target: targetId.optional().describe('Count as the editor does for this target (its tokenizer).'),
  })
  .strict()
  .refine((v) => v.tokenizer === undefined || v.target === undefined, { error: 'give tokenizer or target, not both' });
export type CountInput = z.infer<typeof countInput>;

export const estimateInput = z
  .object({
    path,
    target: targetId,
    cachedTokens: z.number().int().min(0).max(100_000_000).optional().describe('Input tokens served from cache.'),
    outputTokens: z.number().int().min(0).max(1_000_000).optional().describe('Output tokens; default 256.'),
    concurrency: z.number().int().min(1).max(4096).optional().describe('Requests in flight together; default 1.'),
  })
  .strict();
export type EstimateInput = z.infer<typeof estimateInput>;
