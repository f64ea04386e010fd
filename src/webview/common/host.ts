// Webview side of the protocol: one VS Code API handle, the ready handshake, and persisted state so
// a reloaded view (serializer) redraws at once.
import { receive, type FromWebview, type SavedView, type Synced, type ToWebview } from '../protocol';

interface VsCodeApi<S> {
  postMessage(message: FromWebview): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

export interface Host<View> {
  post(message: FromWebview): void;
  /** The view's own choices (e.g. shown columns), kept while the panel lives, across hide and reload. */
  view(): View | undefined;
  saveView(view: View): void;
}

/**
 * `apply`: for a view whose host sends deltas (see protocol.ts); the whole state comes after a reload
 * or a gap in the sequence, asked for with `resync`. `persist` says which deltas are worth saving for
 * a reload (saving serialises the whole state: not for every progress tick).
 */
export function connect<State, Delta = never, View = never>(
  render: (state: State) => void,
  apply?: (state: State, delta: Delta) => State,
  persist: (delta: Delta) => boolean = () => true,
): Host<View> {
  const api = acquireVsCodeApi<SavedView<State, View>>();
  const saved = () => api.getState() ?? {};
  let held: Synced<State> | undefined;
  // After connect returns: a view's render may read its own choices through the handle being returned.
  queueMicrotask(() => {
    const initial = saved().state;
    if (initial !== undefined && held === undefined) render(initial);
  });
  window.addEventListener('message', (event: MessageEvent<ToWebview<State, Delta>>) => {
    const message = event.data;
    if (message?.type !== 'state' && (message?.type !== 'delta' || !apply)) return;
    const next = receive(held, message, apply ?? ((state) => state));
    if (next === 'resync') {
      api.postMessage({ type: 'resync' });
      return;
    }
    held = next;
    if (message.type === 'state' || persist(message.delta)) api.setState({ ...saved(), state: next.state });
    render(next.state);
  });
  // Theme changes alter --vscode-* variables; views that draw on canvas redraw from saved state.
  new MutationObserver(() => {
    const state = held?.state ?? saved().state;
    if (state !== undefined) render(state);
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  api.postMessage({ type: 'ready' });
  return {
    post: (message) => api.postMessage(message),
    view: () => saved().view,
    saveView: (view) => api.setState({ ...saved(), view }),
  };
}
