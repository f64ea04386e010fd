import type * as vscode from 'vscode';
import { countText, type FileCount } from '../core/count';
import { DEFAULT_TOKENIZER, getTokenizer } from '../core/tokenize/registry';

/** Counts cached per document version, so hovers and the status bar never count twice. */
export class TokenCounts {
  private readonly cache = new Map<string, { version: number; count: FileCount }>();

  get(document: vscode.TextDocument): FileCount {
    const key = document.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === document.version) return hit.count;
    const count = countText(document.getText(), getTokenizer(DEFAULT_TOKENIZER));
    this.cache.set(key, { version: document.version, count });
    return count;
  }

  forget(document: vscode.TextDocument): void {
    this.cache.delete(document.uri.toString());
  }
}
