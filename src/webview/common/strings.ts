// A view's words: its English catalog, overlaid with the translations the extension host put in the page
// (`data-l10n` on #app, from vscode.l10n.t; the host is where VS Code's language and bundles are).
export { english as fill } from '../../core/l10n';

/** The catalog with each key the page carries as a string replaced; anything else in the page is ignored. */
export function readStrings<T extends Record<string, string>>(catalog: T, app: HTMLElement): T {
  let given: unknown;
  try {
    given = JSON.parse(app.dataset.l10n ?? '{}');
  } catch {
    return catalog;
  }
  if (typeof given !== 'object' || given === null) return catalog;
  const strings: Record<string, string> = { ...catalog };
  for (const key of Object.keys(catalog)) {
    const value = (given as Record<string, unknown>)[key];
    if (typeof value === 'string') strings[key] = value;
  }
  return strings as T;
}
