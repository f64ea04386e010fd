// The typed message protocol between the extension and its webviews. Every view speaks it:
// the webview says `ready` once its script runs; only then does the host post state to it.

/** Webview → extension. */
export type FromWebview =
  | { type: 'ready' }
  /** The webview missed a message (a gap in `seq`): send the whole state again. */
  | { type: 'resync' }
  | { type: 'command'; command: string; args?: unknown[] }
  | { type: 'export'; format: 'json' | 'csv' };

/**
 * Extension → webview: the whole state to render (views are pure functions of it), or, for a view
 * with a delta, what changed since the state numbered `seq - 1` (live benchmark progress).
 */
export type ToWebview<State, Delta = never> =
  { type: 'state'; seq: number; state: State } | { type: 'delta'; seq: number; delta: Delta };

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'ready' || type === 'resync') return true;
  if (type === 'command') return typeof (value as { command?: unknown }).command === 'string';
  if (type === 'export') return ['json', 'csv'].includes((value as { format?: unknown }).format as string);
  return false;
}

/** What a webview holds: the state it renders and the number of the message that made it. */
export interface Synced<State> {
  seq: number;
  state: State;
}

/**
 * The webview's side of the sequence: the state after `message`, or 'resync' when it cannot be
 * applied (a delta that does not follow the state held, or none held after a reload).
 */
export function receive<State, Delta>(
  held: Synced<State> | undefined,
  message: ToWebview<State, Delta>,
  apply: (state: State, delta: Delta) => State,
): Synced<State> | 'resync' {
  if (message.type === 'state') return { seq: message.seq, state: message.state };
  if (!held || message.seq !== held.seq + 1) return 'resync';
  return { seq: message.seq, state: apply(held.state, message.delta) };
}

/**
 * What VS Code keeps for a webview (its getState/setState, and what a panel serializer is given after
 * a reload): the extension's last state and the view's own choices (e.g. Compare's shown columns).
 */
export interface SavedView<State, View = never> {
  state?: State;
  view?: View;
}

/** The extension's state inside what a panel serializer is given (unknown: it comes from the webview). */
export function savedState(saved: unknown): unknown {
  return typeof saved === 'object' && saved !== null ? (saved as SavedView<unknown>).state : undefined;
}
