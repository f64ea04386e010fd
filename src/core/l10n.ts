/**
 * A message translator with VS Code's `l10n.t` signature: the extension passes `vscode.l10n.t`, so presentation
 * code the core shares with the CLI stays free of `vscode`; elsewhere (CLI, tests) `english` fills in `{0}`, `{1}`….
 */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
