import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { analysisAnswer, compareAnswer, reportAnswer, type ToolAnswer } from '../../core/agentTools/answers';
import { AGENT_TOOLS } from '../../core/agentTools/definitions';
import { pathUnder } from '../../core/agentTools/paths';
import {
  analyzePrompt,
  comparePrompt,
  countFile,
  estimateFile,
  resolveTargets,
  workspaceReport,
  type AgentConfig,
  type PromptFile,
} from '../../core/agentTools/run';
import { servingLabel } from '../../core/estimate/scenarios';
import { DEFAULT_TARGET_IDS, parseTargetId, resolveTarget, targetModelId, targetTokenizer } from '../../core/estimate';
import { resolveProfile } from '../../core/compare';
import { DEFAULT_FINDING_SETTINGS } from '../../core/findings/settings';
import { DEFAULT_INCLUDE_GLOBS, promptFileMatcher } from '../../core/promptFiles';
import { describeFsError, EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, oversizedMessage } from '../promptInput';
import { readPromptTree } from '../promptTree';
import { humanReport, toJson } from './estimate';
import { loadCliTables } from '../tables';

export const MCP_USAGE = `prompt-lens mcp [--root DIR] [--target ID]... [--table FILE]... ${MAX_FILE_USAGE}`;

const VERSION = '0.1.0';

/**
 * A Model Context Protocol server on stdin/stdout (the official SDK): the editor's analysis as tools
 * for coding agents. It reads files only under --root (symbolic links resolved before the check) and
 * sends nothing over the network. Runs until stdin closes.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      root: { type: 'string' },
      target: { type: 'string', multiple: true },
      table: { type: 'string', multiple: true },
      ...MAX_FILE_OPTION,
    },
    allowPositionals: false,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`no positional arguments; usage: ${MCP_USAGE}`);
  const root = await rootDir(resolve(io.cwd, values.root ?? '.'));
  const maxBytes = maxFileBytesFlag(values['max-file-bytes']);
  const tables = await loadCliTables(values.table ?? [], io);
  const config: AgentConfig = {
    tables,
    targets: resolveTargets(values.target ?? DEFAULT_TARGET_IDS, { tables }),
    findings: DEFAULT_FINDING_SETTINGS,
    variablePatterns: [],
    disabledFormats: [],
    workload: resolveProfile(),
  };
  const files = new RootFiles(io, root, maxBytes);
  const server = new McpServer({ name: 'prompt-latency-lens', version: VERSION });
  registerTools(server, config, files);

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = done;
    process.stdin.once('end', done);
  });
  await server.connect(transport);
  io.err(`prompt-lens mcp: serving ${root} over stdio\n`);
  await closed;
  await server.close();
  return EXIT.ok;
}

async function rootDir(path: string): Promise<string> {
  try {
    const real = await realpath(path);
    if (!(await stat(real)).isDirectory()) throw new UsageError(`--root ${path}: not a directory`);
    return real;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--root ${path}: ${describeFsError(error)}`);
  }
}

/** Files under the root only: every path is resolved, symbolic links included, before it is checked. */
class RootFiles {
  constructor(
    private readonly io: CliIo,
    readonly root: string,
    private readonly maxBytes: number,
  ) {}

  /** The real path and its root-relative name (forward slashes); refuses anything outside the root. */
  async locate(path: string): Promise<{ real: string; relative: string }> {
    let real: string;
    try {
      real = await realpath(resolve(this.root, path));
    } catch (error) {
      throw new UsageError(`${path}: ${describeFsError(error)}`);
    }
    const rel = pathUnder(this.root, real);
    if (rel === undefined)
      throw new UsageError(`${path}: outside the root ${this.root}; this server reads files only under it`);
    return { real, relative: rel };
  }

  async prompt(path: string): Promise<PromptFile> {
    const { real, relative: rel } = await this.locate(path);
    let bytes: number;
    try {
      bytes = await this.io.fileSize(real);
    } catch (error) {
      throw new UsageError(`${path}: ${describeFsError(error)}`);
    }
    if (bytes > this.maxBytes) throw new UsageError(oversizedMessage(path, bytes, this.maxBytes));
    return { path: rel, text: await this.io.readFile(real) };
  }

  /** Every prompt file under `dir` (default: the root), named relative to the root. */
  async tree(dir = '.'): Promise<{ inputs: PromptFile[]; skipped: string[] }> {
    const { real, relative: rel } = await this.locate(dir);
    const skipped: string[] = [];
    const isPrompt = promptFileMatcher(DEFAULT_INCLUDE_GLOBS, []);
    const { inputs } = await readPromptTree(this.io, real, isPrompt, this.maxBytes, (m) => skipped.push(m));
    const prefix = rel === '.' ? '' : `${rel}/`;
    return { inputs: inputs.map((f) => ({ path: `${prefix}${f.path}`, text: f.text })), skipped };
  }
}

const reply = (answer: ToolAnswer): CallToolResult => ({
  content: [{ type: 'text', text: answer.text }],
  structuredContent: answer.data,
});

function registerTools(server: McpServer, config: AgentConfig, files: RootFiles): void {
  const annotations = { readOnlyHint: true, openWorldHint: false };
  // The SDK parses each call with inputSchema before `run`; its callback type is a conditional on the schema
  // type that TypeScript cannot resolve for a generic one, hence the cast.
  const tool = <T>(
    definition: { mcpName: string; description: string; input: z.ZodType<T> },
    run: (input: T) => Promise<ToolAnswer>,
  ) =>
    server.registerTool(
      definition.mcpName,
      { description: definition.description, inputSchema: definition.input, annotations },
      (async (input: T) => reply(await run(input))) as never,
    );

  tool(AGENT_TOOLS.analyzePrompt, async (input) => {
    const prompt = await files.prompt(input.path);
    const workspace = await files.tree();
    const targets = input.targets ? resolveTargets(input.targets, config) : config.targets;
    const { analysis, problems } = await analyzePrompt(
      { ...config, targets },
      prompt,
      workspace.inputs,
      input.scenario,
    );
    return analysisAnswer(prompt.path, analysis, [...problems, ...workspace.skipped]);
  });

  tool(AGENT_TOOLS.compareTargets, async (input) => {
    const prompt = await files.prompt(input.path);
    const workspace = await files.tree();
    const { result, problems } = await comparePrompt(config, prompt, workspace.inputs, input.scenario);
    return compareAnswer(prompt.path, result, input.limit ?? 10, [...problems, ...workspace.skipped]);
  });

  tool(AGENT_TOOLS.workspaceReport, async (input) => {
    const { inputs, skipped } = await files.tree(input.dir);
    const targets = input.target ? resolveTargets([input.target], config) : config.targets;
    return reportAnswer(workspaceReport({ ...config, targets }, inputs), input.limit ?? 20, skipped);
  });

  tool(AGENT_TOOLS.count, async (input) => {
    const prompt = await files.prompt(input.path);
    const target = input.target ? resolveTarget(parseTargetId(input.target), config.tables) : undefined;
    const forced = target ? targetTokenizer(target) : input.tokenizer;
    const count = countFile(prompt, forced, target ? targetModelId(target) : undefined);
    const mark = count.exact ? '' : '≈';
    return {
      text: `${prompt.path}: ${mark}${count.inputTokens.toLocaleString('en-US')} input tokens, ${mark}${count.contentTokens.toLocaleString('en-US')} content (${count.tokenizer}${count.exact ? '' : ', approximate'}); ${count.messages.map((m) => `${m.role} ${m.tokens}`).join(', ')}`,
      data: { file: prompt.path, ...count },
    };
  });

  tool(AGENT_TOOLS.estimate, async (input) => {
    const prompt = await files.prompt(input.path);
    const target = resolveTarget(parseTargetId(input.target), config.tables);
    const {
      estimate: e,
      tokenizer,
      tokensExact,
    } = estimateFile(target, prompt, {
      ...(input.cachedTokens !== undefined ? { cachedTokens: input.cachedTokens } : {}),
      ...(input.outputTokens !== undefined ? { outputTokens: input.outputTokens } : {}),
      ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    });
    const tokens = { tokenizer, exact: tokensExact };
    return {
      text: humanReport(e, tokens, servingLabel(target)),
      data: { file: prompt.path, ...toJson(e, tokens), serving: servingLabel(target) },
    };
  });
}
