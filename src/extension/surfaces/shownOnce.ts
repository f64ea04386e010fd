/**
 * What a surface last showed, per key (a document, an editor, the status bar): a refresh that would show the same
 * analysis under the same settings again is skipped. Opening a prompt refreshed its surfaces two or three times for
 * one analysis (the open, the active editor, the analyzer's own event), each time re-setting diagnostics and
 * decorations, rebuilding the status bar's tooltip and asking VS Code for every CodeLens again — on the host's thread.
 */
export class ShownOnce<K extends object> {
  private readonly shown = new WeakMap<K, readonly unknown[]>();

  /** Whether `key` last showed anything other than `what` (item by item, by identity); remembers `what`. */
  changed(key: K, ...what: unknown[]): boolean {
    const last = this.shown.get(key);
    if (last?.length === what.length && last.every((item, i) => item === what[i])) return false;
    this.shown.set(key, what);
    return true;
  }

  /** The surface was cleared or hidden: the next `changed` shows again. */
  forget(key: K): void {
    this.shown.delete(key);
  }
}
