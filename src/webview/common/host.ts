// Webview side of the protocol: one VS Code API handle, the ready handshake, and persisted state so
// a reloaded view (serializer) redraws at once.
import type { FromWebview, ToWebview } from '../protocol';

interface VsCodeApi<S> {
  postMessage(message: FromWebview): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

export function connect<State>(render: (state: State) => void): { post(message: FromWebview): void } {
  const api = acquireVsCodeApi<State>();
  const saved = api.getState();
  if (saved !== undefined) render(saved);
  window.addEventListener('message', (event: MessageEvent<ToWebview<State>>) => {
    if (event.data?.type !== 'state') return;
    api.setState(event.data.state);
    render(event.data.state);
  });
  // Theme changes alter --vscode-* variables; views that draw on canvas redraw from saved state.
  new MutationObserver(() => {
    const state = api.getState();
    if (state !== undefined) render(state);
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  api.postMessage({ type: 'ready' });
  return { post: (message) => api.postMessage(message) };
}
