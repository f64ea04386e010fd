import * as vscode from 'vscode';
import type { Finding, RelatedLocation } from '../../core/findings/types';
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
    return this.findings
      .get(document.uri.toString())
      ?.find((f) => f.code === diagnostic.code && diagnostic.range.contains(document.positionAt(f.range.start)));
  }

  update(document: vscode.TextDocument, analysis: DocumentAnalysis): void {
    const range = (start: number, end: number) => {
      const from = document.positionAt(start);
      // A point (where a shared prefix ends) becomes its line, so it can be seen, hovered and fixed.
      return start < end ? new vscode.Range(from, document.positionAt(end)) : document.lineAt(from.line).range;
    };
    const diagnostics: vscode.Diagnostic[] = [];
    for (const error of analysis.parsed.errors) {
      const d = new vscode.Diagnostic(
        range(error.range.start, error.range.end),
        error.message,
        error.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error,
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'parse-error';
      diagnostics.push(d);
    }
    for (const finding of analysis.findings) {
      const d = new vscode.Diagnostic(
        range(finding.range.start, finding.range.end),
        finding.message,
        SEVERITY[finding.severity],
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = finding.code;
      if (finding.relatedFiles?.length)
        d.relatedInformation = finding.relatedFiles.map(
          (r) => new vscode.DiagnosticRelatedInformation(relatedLocation(r), r.message),
        );
      diagnostics.push(d);
    }
    // A retired target fails every request: an error on the first line (the window is the context-window finding's).
    for (const message of analysis.targets.flatMap((t) => (t.retired ? [t.retired] : []))) {
      const d = new vscode.Diagnostic(document.lineAt(0).range, message, vscode.DiagnosticSeverity.Error);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'retired-model';
      diagnostics.push(d);
    }
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

/** A related file's location: workspace-relative path, at the position the analysis found (else its start). */
export function relatedLocation(related: RelatedLocation): vscode.Location {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = folder ? vscode.Uri.joinPath(folder, related.file) : vscode.Uri.file(related.file);
  const at = related.position
    ? new vscode.Position(related.position.line - 1, related.position.column - 1)
    : new vscode.Position(0, 0);
  return new vscode.Location(uri, at);
}
