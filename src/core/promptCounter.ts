import { countPrompt, tokenizerIdFor, type PromptCount } from './count';
import { parsePrompt } from './prompt/parse';
import type { ParsedPrompt } from './prompt/types';
import { IncrementalCounter, type TextEdit } from './tokenize/incremental';
import { CountMemo } from './tokenize/countMemo';
import { getTokenizer } from './tokenize/registry';
import type { Tokenizer, TokenizerId } from './tokenize/types';

export interface PromptCounterOptions {
  /** Forces one tokenizer; otherwise each document's front-matter model chooses (o200k_base by default). */
  tokenizer?: TokenizerId;
  variablePatterns?: readonly string[];
}

interface Entry {
  version: number;
  count: PromptCount;
  parsed: ParsedPrompt;
  /** Kept while the document is one message equal to its whole text (a plain prompt). */
  whole?: IncrementalCounter;
}

/**
 * Counts for open documents, cached per version. An edit to a plain prompt re-tokenises only the
 * chunks it touches (IncrementalCounter); other formats are re-parsed (milliseconds) and only
 * messages whose rendered text changed are re-tokenised (CountMemo). Loads tokenizers on first use.
 */
export class PromptCounter {
  private readonly entries = new Map<string, Entry>();
  private readonly memos = new Map<TokenizerId, CountMemo>();

  constructor(private readonly options: PromptCounterOptions = {}) {}

  /** The cached count of `key` (e.g. a document URI) at `version`, if there is one. */
  cached(key: string, version: number): PromptCount | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.count : undefined;
  }

  /**
   * Counts `text` (version `version` of document `key`). `edits` turn the previously counted text
   * into this one, applied in order, each in the coordinates left by the previous (VS Code's content
   * changes, which come last-first); without them, or if they do not add up to `text`, it counts afresh.
   */
  count(key: string, fileName: string, text: string, version: number, edits: readonly TextEdit[] = []): PromptCount {
    const previous = this.entries.get(key);
    if (previous?.version === version) return previous.count;
    const { parsed, tokenizer } = this.parse(fileName, text);
    const whole = isWholeText(parsed, text) ? (reuse(previous, tokenizer, text, edits) ?? new IncrementalCounter(tokenizer, text)) : undefined;
    return this.store(key, version, parsed, tokenizer, text, whole);
  }

  /**
   * As count(), for the extension host: a new large text is tokenised in slices that yield to the
   * event loop (edits to a counted text stay synchronous: they touch a few chunks). A result for an
   * older version than the one already cached is returned but not stored.
   */
  async countAsync(key: string, fileName: string, text: string, version: number, edits: readonly TextEdit[] = [], sliceMs = 8): Promise<PromptCount> {
    const previous = this.entries.get(key);
    if (previous?.version === version) return previous.count;
    const { parsed, tokenizer } = this.parse(fileName, text);
    let whole: IncrementalCounter | undefined;
    if (isWholeText(parsed, text)) whole = reuse(previous, tokenizer, text, edits) ?? (await IncrementalCounter.create(tokenizer, text, sliceMs));
    else for (const message of parsed.messages) await this.memoFor(tokenizer).countAsync(message.rendered, sliceMs);
    return this.store(key, version, parsed, tokenizer, text, whole);
  }

  private parse(fileName: string, text: string): { parsed: ParsedPrompt; tokenizer: Tokenizer } {
    const parsed = parsePrompt(fileName, text, this.options.variablePatterns ? { variablePatterns: this.options.variablePatterns } : {});
    return { parsed, tokenizer: getTokenizer(this.options.tokenizer ?? tokenizerIdFor(parsed)) };
  }

  private store(key: string, version: number, parsed: ParsedPrompt, tokenizer: Tokenizer, text: string, whole: IncrementalCounter | undefined): PromptCount {
    const memo = this.memoFor(tokenizer);
    const counter = whole ? { count: (t: string) => (t === text ? whole.count : memo.count(t)) } : memo;
    const count = countPrompt(parsed, tokenizer, counter);
    const latest = this.entries.get(key);
    if (!latest || latest.version <= version) this.entries.set(key, { version, count, parsed, ...(whole ? { whole } : {}) });
    return count;
  }

  /** The parse behind the cached count (for diagnostics and variable decorations). */
  parsed(key: string): ParsedPrompt | undefined {
    return this.entries.get(key)?.parsed;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private memoFor(tokenizer: Tokenizer): CountMemo {
    let memo = this.memos.get(tokenizer.id);
    if (!memo || memo.tokenizer !== tokenizer) {
      memo = new CountMemo(tokenizer);
      this.memos.set(tokenizer.id, memo);
    }
    return memo;
  }
}

/** The previous counter brought up to `text` by the edits, if they add up (else a fresh count is needed). */
function reuse(previous: Entry | undefined, tokenizer: Tokenizer, text: string, edits: readonly TextEdit[]): IncrementalCounter | undefined {
  const counter = previous?.whole;
  if (!counter || counter.tokenizer !== tokenizer || edits.length === 0) return undefined;
  for (const edit of edits) counter.apply(edit);
  return counter.currentText === text ? counter : undefined;
}

/** A plain prompt without role markers (or an unreadable file): its one message is the document text itself. */
function isWholeText(parsed: ParsedPrompt, text: string): boolean {
  return parsed.messages.length === 1 && parsed.messages[0]?.rendered === text;
}
