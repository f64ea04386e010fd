// The typed message protocol between the extension and its webviews. Every view speaks it:
// the webview says `ready` once its script runs; only then does the host post state to it.

/** Webview → extension. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'command'; command: string; args?: unknown[] }
  | { type: 'export'; format: 'json' | 'csv' };

/** Extension → webview: the whole state to render (views are pure functions of it). */
export interface ToWebview<State> {
  type: 'state';
  state: State;
}

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'ready') return true;
  if (type === 'command') return typeof (value as { command?: unknown }).command === 'string';
  if (type === 'export') return ['json', 'csv'].includes((value as { format?: unknown }).format as string);
  return false;
}
