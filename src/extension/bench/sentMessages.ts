import type { BenchMessages } from '../../core/bench/benchPrompt';

/** Where a run reads a document's analysis and the messages it sends (the analyzer, for one document). */
export interface SentMessagesReader<A> {
  /** The analysis of the document as it is now; undefined when it is not a prompt. */
  current(): Promise<A | undefined>;
  /** The messages the worker parsed for that analysis' version; undefined once an edit moved the worker on. */
  messages(analysis: A): Promise<BenchMessages | undefined>;
}

export type SentMessages<A> =
  | { analysis: A; prompt: BenchMessages }
  /** Not a prompt, or why it was not tokenised (over promptLens.maxFileBytes). */
  | { unreadable: string }
  | { keptChanging: true };

/** Reads this often (a user typing meanwhile) before saying the file kept changing. */
export const SENT_MESSAGES_TRIES = 3;

/**
 * The analysis and the messages a run sends, both of one version, as the editor shows it: an edit between the two
 * reads asks again.
 */
export async function readSentMessages<A extends { tooLarge?: string }>(
  reader: SentMessagesReader<A>,
): Promise<SentMessages<A>> {
  for (let attempt = 0; attempt < SENT_MESSAGES_TRIES; attempt++) {
    const analysis = await reader.current();
    if (!analysis || analysis.tooLarge) return { unreadable: analysis?.tooLarge ?? 'not a prompt' };
    const prompt = await reader.messages(analysis);
    if (prompt) return { analysis, prompt };
  }
  return { keptChanging: true };
}
