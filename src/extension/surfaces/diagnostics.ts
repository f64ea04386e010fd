import * as vscode from 'vscode';
import type { Finding } from '../../core/findings/types';
import type { DocumentAnalysis } from '../analysis/analyzer';

export const DIAGNOSTIC_SOURCE = 'Prompt Latency Lens';

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** Findings and parse errors as diagnostics; `data` rides along for the quick fixes. */
export class PromptDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('promptLens');
  /** The findings behind each document's diagnostics, for the code-action provider. */
  private readonly findings = new Map<string, Finding[]>();

  /**
   * The finding a diagnostic shows, matched by code and position: code-action contexts carry copies
   * of our diagnostics, not the objects we set.
   */
  findingOf(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): Finding | undefined {
    return this.findings.get(document.uri.toString())?.find((f) => f.code === diagnostic.code && diagnostic.range.contains(document.positionAt(f.range.start)));
  }

  async update(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<void> {
    const range = (start: number, end: number) => {
      const from = document.positionAt(start);
      // A point (where a shared prefix ends) becomes its line, so it can be seen, hovered and fixed.
      return start < end ? new vscode.Range(from, document.positionAt(end)) : document.lineAt(from.line).range;
    };
    const diagnostics: vscode.Diagnostic[] = [];
    for (const error of analysis.parsed.errors) {
      const d = new vscode.Diagnostic(range(error.range.start, error.range.end), error.message, error.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'parse-error';
      diagnostics.push(d);
    }
    for (const message of analysis.targets[0]?.errors ?? []) {
      const d = new vscode.Diagnostic(document.lineAt(0).range, message, vscode.DiagnosticSeverity.Error);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'context-window';
      if (!analysis.findings.some((f) => f.code === 'context-window')) diagnostics.push(d);
    }
    for (const finding of analysis.findings) {
      const d = new vscode.Diagnostic(range(finding.range.start, finding.range.end), finding.message, SEVERITY[finding.severity]);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = finding.code;
      if (finding.relatedFiles?.length) d.relatedInformation = await Promise.all(finding.relatedFiles.map(async (r) => new vscode.DiagnosticRelatedInformation(await locate(r.file, r.range.start), r.message)));
      diagnostics.push(d);
    }
    if (document.isClosed) return;
    this.findings.set(document.uri.toString(), analysis.findings);
    this.collection.set(document.uri, diagnostics);
  }

  clear(uri: vscode.Uri): void {
    this.findings.delete(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** A workspace-relative file and offset as a location (reading the file when it is not open). */
export async function locate(file: string, offset: number): Promise<vscode.Location> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = folder ? vscode.Uri.joinPath(folder, file) : vscode.Uri.file(file);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return new vscode.Location(uri, open.positionAt(offset));
  try {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).slice(0, offset);
    const lines = text.split('\n');
    return new vscode.Location(uri, new vscode.Position(lines.length - 1, (lines[lines.length - 1] ?? '').length));
  } catch {
    return new vscode.Location(uri, new vscode.Position(0, 0));
  }
}
