// The agent tools as VS Code language-model tools (`#promptLens` in chat, `vscode.lm.invokeTool`): a thin adapter
// that finds the workspace file, asks the editor's own analyzer (the hover's DocumentAnalysis, settings,
// calibrations, findings) and answers with the core's text and data, so an agent reads what the hover shows.
import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { parse as parseJsonc } from 'jsonc-parser';
import { z } from 'zod';
import { analysisAnswer, compareAnswer, reportAnswer, type ToolAnswer } from '../core/agentTools/answers';
import { AGENT_TOOLS } from '../core/agentTools/definitions';
import { pathUnder } from '../core/agentTools/paths';
import { decodeFileText } from '../core/prompt/fileText';
import { RESTRICTED_SETTINGS } from '../core/settings/schema';
import type { DocumentAnalysis, PromptAnalyzer } from './analysis/analyzer';
import { isPromptDocument, readWorkspacePrompts } from './promptDocuments';
import { readSettings } from './settings';

/** Registers the tools; nothing runs until one is invoked (the analysis worker starts then, if not before). */
export function registerAgentTools(analyzer: PromptAnalyzer): vscode.Disposable[] {
  return [
    tool(
      AGENT_TOOLS.analyzePrompt,
      (input) => `Estimating tokens, TTFT and cost of ${input.path}`,
      async (input) => {
        const { document, path } = await promptDocument(input.path);
        const analysis = ready(
          path,
          await analyzer.forAgent(document, {
            ...(input.targets ? { targets: input.targets } : {}),
            ...(input.scenario ? { scenario: input.scenario } : {}),
          }),
        );
        return analysisAnswer(path, analysis, [...analysis.problems, ...(await trustNotes())]);
      },
    ),
    tool(
      AGENT_TOOLS.compareTargets,
      (input) => `Ranking models and deployments for ${input.path}`,
      async (input) => {
        const { document, path } = await promptDocument(input.path);
        const analysis = ready(
          path,
          await analyzer.forAgent(document, input.scenario ? { scenario: input.scenario } : {}),
        );
        const result = await analyzer.compare(document, analysis);
        return compareAnswer(path, result, input.limit ?? 10, [...analysis.problems, ...(await trustNotes())]);
      },
    ),
    tool(
      AGENT_TOOLS.workspaceReport,
      (input) => `Reporting on the prompt files${input.dir ? ` under ${input.dir}` : ''}`,
      async (input) => {
        const dir = input.dir === undefined ? '.' : (await workspacePath(input.dir)).path;
        const inputs = (await readWorkspacePrompts(readSettings().settings.maxFileBytes)).filter(
          (f) => dir === '.' || f.path.startsWith(`${dir}/`),
        );
        const report = await analyzer.report(inputs, input.target);
        return reportAnswer(report, input.limit ?? 20, await trustNotes());
      },
    ),
  ];
}

/**
 * One tool: the input parsed with its zod schema (the one package.json's inputSchema is generated from), the
 * answer as concise text for the model, then its data as JSON.
 */
function tool<T>(
  definition: { input: z.ZodType<T>; editor: { name: string } },
  progress: (input: T) => string,
  run: (input: T) => Promise<ToolAnswer>,
): vscode.Disposable {
  const { name } = definition.editor;
  const parse = (input: unknown): T => {
    const parsed = definition.input.safeParse(input);
    if (!parsed.success) throw new Error(`${name}: invalid input: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  };
  return vscode.lm.registerTool<unknown>(name, {
    prepareInvocation: ({ input }) => {
      const parsed = definition.input.safeParse(input);
      return {
        invocationMessage: `Prompt Latency Lens: ${parsed.success ? progress(parsed.data) : 'checking the input'}`,
      };
    },
    invoke: async ({ input }, token) => {
      const answer = await run(parse(input));
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(answer.text),
        new vscode.LanguageModelTextPart(JSON.stringify(answer.data)),
      ]);
    },
  });
}

/**
 * A path an agent named, relative to the (first) workspace folder or absolute inside one; refused when it leads
 * outside every folder, symbolic links resolved first for files on disk.
 */
async function workspacePath(path: string): Promise<{ uri: vscode.Uri; path: string }> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new Error('no folder is open: these tools read the prompt files of a workspace');
  const uri = isAbsolute(path) ? vscode.Uri.file(path) : vscode.Uri.joinPath(folders[0]!.uri, path);
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const outside = new Error(`${path}: outside the workspace; these tools read only the workspace's files`);
  if (!folder) throw outside;
  if (uri.scheme !== 'file') return { uri, path: vscode.workspace.asRelativePath(uri, false) };
  let real: string;
  try {
    real = await realpath(uri.fsPath);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new Error(`${path}: ${why}`, { cause: error });
  }
  const under = pathUnder(await realpath(folder.uri.fsPath), real);
  if (under === undefined) throw outside;
  return { uri, path: vscode.workspace.asRelativePath(uri, false) };
}

/** A prompt file of the workspace, opened (not shown) as the editor's surfaces see it, unsaved edits included. */
async function promptDocument(path: string): Promise<{ document: vscode.TextDocument; path: string }> {
  const found = await workspacePath(path);
  const { maxFileBytes } = readSettings(found.uri).settings;
  const { size } = await vscode.workspace.fs.stat(found.uri);
  if (size > maxFileBytes)
    throw new Error(`${path}: ${size.toLocaleString('en-US')} bytes, over promptLens.maxFileBytes (${maxFileBytes})`);
  const document = await vscode.workspace.openTextDocument(found.uri);
  if (!isPromptDocument(document))
    throw new Error(
      `${path}: not a prompt file (the built-in prompt file patterns and promptLens.include decide which are)`,
    );
  return { document, path: found.path };
}

function ready(path: string, analysis: DocumentAnalysis | undefined): DocumentAnalysis {
  if (!analysis) throw new Error(`${path}: not a prompt file`);
  if (analysis.tooLarge) throw new Error(`${path}: ${analysis.tooLarge}`);
  return analysis;
}

/**
 * Workspace Trust, said in every answer: an untrusted workspace's own tables, table file, endpoints and patterns
 * are ignored (readSettings keeps only user values of restricted settings), and the answer names the ones set.
 */
async function trustNotes(): Promise<string[]> {
  if (vscode.workspace.isTrusted) return [];
  const ignored = await restrictedWorkspaceKeys();
  const what =
    ignored.length > 0
      ? `its ${ignored.join(', ')} settings are`
      : 'any promptLens tables, table file, endpoints, include globs or patterns it sets are';
  return [
    `this workspace is not trusted (Workspace Trust): ${what} ignored; the figures use the built-in tables and ` +
      'your user settings only, and no endpoint is contacted.',
  ];
}

const settingsObject = z.record(z.string(), z.unknown());

/**
 * The restricted promptLens settings the workspace's own settings files set. VS Code hides their values from
 * `inspect` in an untrusted workspace, so the files are read (only their keys are used).
 */
async function restrictedWorkspaceKeys(): Promise<string[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    vscode.Uri.joinPath(f.uri, '.vscode/settings.json'),
  );
  const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile : undefined;
  const set = new Set<string>();
  for (const uri of [...folders, ...(workspaceFile ? [workspaceFile] : [])]) {
    const bytes = await vscode.workspace.fs.readFile(uri).then(undefined, () => undefined);
    if (!bytes) continue;
    const value: unknown = parseJsonc(decodeFileText(bytes));
    // A .code-workspace file keeps its settings under "settings".
    const settings = settingsObject.safeParse(
      uri === workspaceFile ? settingsObject.safeParse(value).data?.settings : value,
    );
    if (settings.success) for (const key of Object.keys(settings.data)) set.add(key);
  }
  return RESTRICTED_SETTINGS.map((key) => `promptLens.${key}`).filter((key) => set.has(key));
}
