import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { isFromWebview, type FromWebview, type ToWebview } from '../../webview/protocol';

export interface PanelSpec {
  viewType: string;
  title: string;
  /** Bundle name under dist/webview/ (NAME.js and, if present, NAME.css). */
  script: string;
  /** The view's words (its English catalog), translated here: the webview reads them from the page. */
  strings: Record<string, string>;
}

/** A webview's catalog through vscode.l10n.t (the English text is the key; `{0}`… are filled in the view). */
export function localised<T extends Record<string, string>>(catalog: T): T {
  return Object.fromEntries(Object.entries(catalog).map(([key, text]) => [key, vscode.l10n.t(text)])) as T;
}

/** What turns the state the webview holds into the next one; undefined when nothing changed. */
export type StateDiff<State, Delta> = (from: State, to: State) => Delta | undefined;

/**
 * One webview panel: strict CSP with a fresh nonce per render, resources only from dist/webview and
 * media, and a ready handshake — state posted before the script listens would be lost, so the latest
 * state is held until the webview says `ready`, and re-sent whenever it says so again (reload).
 * With a `diff`, a state after the first goes as a delta from the one posted before, numbered so the
 * webview can tell a gap and ask for the whole state again (`resync`).
 */
export class PanelHost<State, Delta = never> implements vscode.Disposable {
  private ready = false;
  private latest: State | undefined;
  /** What the webview holds: the last state posted to it, and its number. */
  private posted: State | undefined;
  private seq = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly messageEmitter = new vscode.EventEmitter<FromWebview>();
  readonly onMessage = this.messageEmitter.event;
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly spec: PanelSpec,
    private readonly diff?: StateDiff<State, Delta>,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = this.html();
    this.onDidDispose = panel.onDidDispose;
    this.disposables.push(
      this.messageEmitter,
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (!isFromWebview(message)) return; // a webview is untrusted input too
        if (message.type === 'ready' || message.type === 'resync') {
          this.ready = true;
          if (this.latest !== undefined) void this.postWhole(this.latest);
        }
        this.messageEmitter.fire(message);
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  static create<State, Delta = never>(
    extensionUri: vscode.Uri,
    spec: PanelSpec,
    diff?: StateDiff<State, Delta>,
    column = vscode.ViewColumn.Beside,
  ): PanelHost<State, Delta> {
    const panel = vscode.window.createWebviewPanel(spec.viewType, spec.title, column, webviewOptions(extensionUri));
    return new PanelHost<State, Delta>(panel, extensionUri, spec, diff);
  }

  /** Sends the state (whole, or as a delta from the one posted before); held until the webview is ready. */
  setState(state: State): void {
    this.latest = state;
    if (!this.ready) return;
    if (!this.diff || this.posted === undefined) {
      void this.postWhole(state);
      return;
    }
    const delta = this.diff(this.posted, state);
    if (delta === undefined) return;
    this.posted = state;
    const message: ToWebview<State, Delta> = { type: 'delta', seq: ++this.seq, delta };
    void this.panel.webview.postMessage(message);
  }

  get state(): State | undefined {
    return this.latest;
  }

  private postWhole(state: State): Thenable<boolean> {
    this.posted = state;
    const message: ToWebview<State, Delta> = { type: 'state', seq: ++this.seq, state };
    return this.panel.webview.postMessage(message);
  }

  private html(): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const base = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(base, `${this.spec.script}.js`));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(base, `${this.spec.script}.css`));
    const csp = [
      `default-src 'none'`,
      `img-src ${webview.cspSource} data:`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${escapeHtml(this.spec.title)}</title>
</head>
<body>
<main id="app" aria-live="polite" data-l10n="${escapeHtml(JSON.stringify(this.spec.strings))}"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
