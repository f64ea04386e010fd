import * as vscode from 'vscode';
import { formatTokens } from './format';
import { isPromptDocument } from './promptDocuments';
import type { TokenCounts } from './tokenCounts';

export class PromptHoverProvider implements vscode.HoverProvider {
  constructor(private readonly counts: TokenCounts) {}

  provideHover(document: vscode.TextDocument): vscode.Hover | undefined {
    if (!isPromptDocument(document)) return undefined;
    const count = this.counts.get(document);
    const markdown = new vscode.MarkdownString();
    markdown.appendMarkdown(`**Prompt Latency Lens**\n\n`);
    markdown.appendMarkdown(`Prompt: **${formatTokens(count)}** (\`${count.tokenizer}\`${count.exact ? ', exact' : ', approximate'})`);
    return new vscode.Hover(markdown);
  }
}
