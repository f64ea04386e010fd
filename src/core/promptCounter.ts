import { countPrompt, type PromptCount } from './count';
import { parsePrompt } from './prompt/parse';
import type { ParsedPrompt } from './prompt/types';
import { CHUNK_TARGET, IncrementalCounter, type TextEdit } from './tokenize/incremental';
import { CountMemo } from './tokenize/countMemo';
import { tokenizerFor } from './tokenize/models';
import { getTokenizer } from './tokenize/registry';
import type { Tokenizer, TokenizerId } from './tokenize/types';

export interface PromptCounterOptions {
  /** Forces one tokenizer; otherwise each document's front-matter model chooses (o200k_base by default). */
  tokenizer?: TokenizerId;
  variablePatterns?: readonly string[];
}

export interface CountInput {
  /** Identifies the document across versions (e.g. its URI). */
  key: string;
  fileName: string;
  text: string;
  version: number;
  /**
   * Turn the previously counted text into this one, applied in order, each in the coordinates left
   * by the previous (VS Code's content changes, which come last-first); without them, or if they do
   * not add up to `text`, it counts afresh.
   */
  edits?: readonly TextEdit[];
  /** This text already parsed (counters of several tokenizers share one parse). */
  parsed?: ParsedPrompt;
  /** The model whose chat template the count renders (the target's, see countPrompt); default the front matter's. */
  model?: string;
}

interface Entry {
  version: number;
  count: PromptCount;
  /**
   * Kept while the document is one message equal to its whole text (a plain prompt): the edits themselves move it,
   * so edits far apart (several cursors) re-count their own chunks, not everything between them as a diff would.
   */
  whole?: IncrementalCounter;
  /**
   * Counters of the long texts the count asked for, in the order it asked: messages (retrieved context), and
   * the runs a chat template renders around them (Llama 3's `\n\n` + the message before `<|eot_id|>`). The
   * next version's n-th long text moves the n-th counter to it, re-tokenising only the chunks that changed.
   */
  long: IncrementalCounter[];
}

/**
 * Texts at least this long keep their own incremental counter; shorter ones use the memo. Two chunks: an edit in a
 * longer message re-tokenises one or two chunks instead of the message (an edit in the workspace bench's 11 KB user
 * message took 1.8–2.4 ms to count through the memo, 1.3–1.7 ms so: three alternated runs each).
 */
const LONG_TEXT_CHARS = 2 * CHUNK_TARGET;

/**
 * Counts for open documents, cached per version. An edit to a plain prompt re-tokenises only the
 * chunks it touches (IncrementalCounter), as does an edit inside a long message or inside the run a
 * chat template rendered around it; other messages are re-tokenised only when their rendered text
 * changed (CountMemo). A new large text is tokenised in slices that yield to the event loop. Loads
 * tokenizers on first use.
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
   * Counts version `version` of document `key`. A result for an older version than the one already
   * cached is returned but not stored.
   */
  async count(input: CountInput, sliceMs = 8): Promise<PromptCount> {
    const { key, text, version, edits = [] } = input;
    const previous = this.entries.get(key);
    if (previous?.version === version) return previous.count;
    const parsed =
      input.parsed ??
      parsePrompt(
        input.fileName,
        text,
        this.options.variablePatterns ? { variablePatterns: this.options.variablePatterns } : {},
      );
    const tokenizer = getTokenizer(this.options.tokenizer ?? tokenizerFor(parsed.settings.model));
    const model = input.model ?? parsed.settings.model;
    const whole = isWholeText(parsed, text)
      ? (reuse(previous, tokenizer, text, edits) ?? (await IncrementalCounter.create(tokenizer, text, sliceMs)))
      : undefined;
    const memo = this.memoFor(tokenizer);
    const counters = new Map<string, IncrementalCounter>(whole ? [[text, whole]] : []);
    const long: IncrementalCounter[] = [];
    // The n-th long text asked for takes the previous version's n-th counter, moved to it.
    const move = (asked: string): IncrementalCounter | undefined => {
      const moved = previous?.long[long.length];
      if (moved?.tokenizer !== tokenizer) return undefined;
      moved.updateTo(asked);
      long.push(moved);
      counters.set(asked, moved);
      return moved;
    };
    let unmoved = false;
    let count = countPrompt(
      parsed,
      tokenizer,
      {
        count: (t) => {
          if (t.length < LONG_TEXT_CHARS) return memo.count(t);
          const counter = counters.get(t) ?? (unmoved ? undefined : move(t));
          unmoved ||= !counter;
          return counter?.count ?? 0;
        },
      },
      model,
    );
    if (unmoved) {
      // A long text with no counter to move (a first count, a new long message): counted in slices, then all again.
      for (const asked of longTextsAsked(parsed, tokenizer, model)) {
        if (counters.has(asked) || move(asked)) continue;
        const created = await IncrementalCounter.create(tokenizer, asked, sliceMs);
        long.push(created);
        counters.set(asked, created);
      }
      count = countPrompt(parsed, tokenizer, { count: (t) => counters.get(t)?.count ?? memo.count(t) }, model);
    }
    const latest = this.entries.get(key);
    if (!latest || latest.version <= version)
      this.entries.set(key, { version, count, long, ...(whole ? { whole } : {}) });
    return count;
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
function reuse(
  previous: Entry | undefined,
  tokenizer: Tokenizer,
  text: string,
  edits: readonly TextEdit[],
): IncrementalCounter | undefined {
  const counter = previous?.whole;
  if (!counter || counter.tokenizer !== tokenizer || edits.length === 0) return undefined;
  for (const edit of edits) counter.apply(edit);
  return counter.hasText(text) ? counter : undefined;
}

/**
 * The texts of at least LONG_TEXT_CHARS that countPrompt will ask its counter for, in order and once each: a
 * rehearsal with a counter that only records, so the new ones can be counted in slices first.
 */
function longTextsAsked(parsed: ParsedPrompt, tokenizer: Tokenizer, model: string | undefined): Set<string> {
  const asked = new Set<string>();
  countPrompt(
    parsed,
    tokenizer,
    {
      count: (t) => {
        if (t.length >= LONG_TEXT_CHARS) asked.add(t);
        return 0;
      },
    },
    model,
  );
  return asked;
}

/** A plain prompt without role markers (or an unreadable file): its one message is the document text itself. */
function isWholeText(parsed: ParsedPrompt, text: string): boolean {
  return parsed.messages.length === 1 && parsed.messages[0]?.rendered === text;
}
