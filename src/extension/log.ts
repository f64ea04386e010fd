import * as vscode from 'vscode';

/**
 * The "Prompt Latency Lens" output channel (Output view; its level follows "Developer: Set Log Level"). What goes in
 * is our own text and errors the core has already redacted: never an API key (the security suite checks).
 */
let channel: vscode.LogOutputChannel | undefined;
/** The last lines, for the integration tests through the extension's API. */
const recent: string[] = [];
const RECENT_LINES = 200;

function remember(line: string): void {
  recent.push(line);
  if (recent.length > RECENT_LINES) recent.shift();
}

/** Created on first use: activation stays small. */
function output(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Prompt Latency Lens', { log: true });
  return channel;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const log = {
  info(message: string): void {
    remember(message);
    output().info(message);
  },
  error(message: string, error?: unknown): void {
    const line = error === undefined ? message : `${message}: ${describe(error)}`;
    remember(line);
    output().error(line);
  },
  recent(): readonly string[] {
    return recent;
  },
  dispose(): void {
    channel?.dispose();
    channel = undefined;
  },
};
