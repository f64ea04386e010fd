// Webview side of the protocol: one VS Code API handle, the ready handshake, and persisted state so
// a reloaded view (serializer) redraws at once.
import { receive, type FromWebview, type Synced, type ToWebview } from '../protocol';

interface VsCodeApi<S> {
  postMessage(message: FromWebview): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

/**
 * `apply`: for a view whose host sends deltas (see protocol.ts); the whole state comes after a reload
 * or a gap in the sequence, asked for with `resync`. `persist` says which deltas are worth saving for
 * a reload (saving serialises the whole state: not for every progress tick).
 */
export function connect<State, Delta = never>(
  render: (state: State) => void,
  apply?: (state: State, delta: Delta) => State,
  persist: (delta: Delta) => boolean = () => true,
): { post(message: FromWebview): void } {
  const api = acquireVsCodeApi<State>();
  const saved = api.getState();
  if (saved !== undefined) render(saved);
  let held: Synced<State> | undefined;
  window.addEventListener('message', (event: MessageEvent<ToWebview<State, Delta>>) => {
    const message = event.data;
    if (message?.type !== 'state' && (message?.type !== 'delta' || !apply)) return;
    const next = receive(held, message, apply ?? ((state) => state));
    if (next === 'resync') {
      api.postMessage({ type: 'resync' });
      return;
    }
    held = next;
    if (message.type === 'state' || persist(message.delta)) api.setState(next.state);
    render(next.state);
  });
  // Theme changes alter --vscode-* variables; views that draw on canvas redraw from saved state.
  new MutationObserver(() => {
    const state = api.getState();
    if (state !== undefined) render(state);
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  api.postMessage({ type: 'ready' });
  return { post: (message) => api.postMessage(message) };
}
