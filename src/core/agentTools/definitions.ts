// The tools agents can call, named and described once: the MCP server registers them under `mcpName`, the
// extension contributes the first three to VS Code as language-model tools (package.json
// `contributes.languageModelTools`, generated from this list and the zod inputs by `npm run schemas`).
import { z } from 'zod';
import { analyzePromptInput, compareTargetsInput, countInput, estimateInput, workspaceReportInput } from './inputs';

export interface AgentToolDefinition {
  /** The MCP tool name. */
  mcpName: string;
  /** What the model reads to decide when to call it. */
  description: string;
  input: z.ZodType;
  /** Set for the tools the editor contributes as VS Code language-model tools. */
  editor?: {
    name: string;
    displayName: string;
    /** `#name` in a chat prompt. */
    toolReferenceName: string;
    userDescription: string;
  };
}

export const AGENT_TOOLS = {
  analyzePrompt: {
    mcpName: 'analyzePrompt',
    description:
      'Tokens per message, TTFT (cold and warm: the cacheable prefix served from cache; p99 at the scenario ' +
      'concurrency), TPOT, E2E and cost per call and per 1,000 calls on each target, and the findings (oversized ' +
      'RAG context, prefix-cache breakers, shareable prefixes) of one prompt file — the figures the editor hover shows.',
    input: analyzePromptInput,
    editor: {
      name: 'promptLens_analyzePrompt',
      displayName: 'Prompt latency and cost',
      toolReferenceName: 'promptLens',
      userDescription:
        'Tokens, time to first token (cold and warm), TPOT, end-to-end latency, cost and findings of a prompt file.',
    },
  },
  compareTargets: {
    mcpName: 'compareTargets',
    description:
      'Ranks API models and self-hosted deployments for one prompt file under a workload profile (SLO: TTFT p99, ' +
      'TPOT; concurrency; output tokens): which meet the SLO, cheapest first — the Compare Targets view.',
    input: compareTargetsInput,
    editor: {
      name: 'promptLens_compareTargets',
      displayName: 'Compare targets for a prompt',
      toolReferenceName: 'promptLensCompare',
      userDescription: 'Which models and deployments meet the SLO for a prompt file, cheapest first.',
    },
  },
  workspaceReport: {
    mcpName: 'workspaceReport',
    description:
      'The workspace report: every prompt file under a folder with its tokens, TTFT and cost on one target, shared ' +
      'prefixes, and the findings, worst first.',
    input: workspaceReportInput,
    editor: {
      name: 'promptLens_workspaceReport',
      displayName: 'Prompt workspace report',
      toolReferenceName: 'promptLensReport',
      userDescription: "The workspace's prompt files with tokens, TTFT and cost, and the worst findings first.",
    },
  },
  count: {
    mcpName: 'count',
    description:
      'Tokens of one prompt file as `prompt-lens count --json` counts them: content, billed input (chat template or ' +
      'overhead), per message, unfilled variables.',
    input: countInput,
  },
  estimate: {
    mcpName: 'estimate',
    description:
      'TTFT, TPOT, E2E and cost of one prompt file on one target, as `prompt-lens estimate --json` computes them ' +
      '(optional cached tokens, output tokens, concurrency).',
    input: estimateInput,
  },
} as const satisfies Record<string, AgentToolDefinition>;

/** The JSON schema VS Code shows the model for a tool's input: what the zod input accepts. */
export function toolInputJsonSchema(input: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { target: 'draft-07', io: 'input' });
  return schema;
}

/** The package.nls.json key of a contributed tool's user-visible field: `languageModelTool.<name>.displayName`. */
const nlsKey = (name: string, field: 'displayName' | 'userDescription') => `languageModelTool.${name}.${field}`;

/** The package.nls.json entries of the contributed tools' names and descriptions, as `npm run schemas` writes them. */
export function languageModelToolNls(): Record<string, string> {
  return Object.fromEntries(
    Object.values(AGENT_TOOLS).flatMap((tool: AgentToolDefinition) =>
      tool.editor
        ? [
            [nlsKey(tool.editor.name, 'displayName'), tool.editor.displayName],
            [nlsKey(tool.editor.name, 'userDescription'), tool.editor.userDescription],
          ]
        : [],
    ),
  );
}

/**
 * package.json `contributes.languageModelTools`, as `npm run schemas` writes it; what users read (display name,
 * description) is a %key% of package.nls.json, localisable like the rest of the manifest. The model's
 * description stays as it is: the model reads it, in English.
 */
export function languageModelToolContributions(): Array<Record<string, unknown>> {
  return Object.values(AGENT_TOOLS).flatMap((tool: AgentToolDefinition) =>
    tool.editor
      ? [
          {
            name: tool.editor.name,
            displayName: `%${nlsKey(tool.editor.name, 'displayName')}%`,
            toolReferenceName: tool.editor.toolReferenceName,
            canBeReferencedInPrompt: true,
            icon: '$(pulse)',
            userDescription: `%${nlsKey(tool.editor.name, 'userDescription')}%`,
            modelDescription: tool.description,
            tags: ['prompt', 'latency', 'cost', 'tokens'],
            inputSchema: toolInputJsonSchema(tool.input),
          },
        ]
      : [],
  );
}
