import { z } from 'zod';
import builtinTemplates from '../../../data/chat-templates.json';
import { TOKENIZER_IDS } from '../tokenize/types';

const TemplateRow = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** Model id prefixes (lower case, provider prefix dropped) that use this template. */
  models: z.array(z.string().min(1)).min(1),
  tokenizer: z.enum(TOKENIZER_IDS),
  source: z.string().min(1),
  retrieved: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  bos_token: z.string(),
  eos_token: z.string(),
  template: z.string().min(1),
  /**
   * The model's special tokens where its tokenizer has more than the family's vocabulary (Mistral v3's control
   * tokens `[INST]`…): each is one token in the rendered prompt. `{a..b}` stands for the numbers a to b.
   */
  special_tokens: z.array(z.string().min(1)).optional(),
  /**
   * `first`: SentencePiece's `▁` is prepended only at the start of the text, not after a special token (a
   * tokenizer.json with Metaspace `prepend_scheme: "first"`); absent: the family's rule for every run.
   */
  prepend_scheme: z.literal('first').optional(),
});
export type ChatTemplate = z.infer<typeof TemplateRow>;

const specialsOf = new WeakMap<ChatTemplate, readonly string[]>();

/** `special_tokens` with each `{a..b}` range written out. */
export function templateSpecials(template: ChatTemplate): readonly string[] | undefined {
  if (!template.special_tokens) return undefined;
  let expanded = specialsOf.get(template);
  if (!expanded) {
    expanded = template.special_tokens.flatMap((token) => {
      const range = /^(.*)\{(\d+)\.\.(\d+)\}(.*)$/.exec(token);
      if (!range) return [token];
      const [, before, from, to, after] = range as unknown as [string, string, string, string, string];
      return Array.from({ length: Number(to) - Number(from) + 1 }, (_, i) => `${before}${Number(from) + i}${after}`);
    });
    specialsOf.set(template, expanded);
  }
  return expanded;
}

const Table = z.object({ templates: z.array(TemplateRow) });

let table: ChatTemplate[] | undefined;

/** The built-in templates (data/chat-templates.json), validated once. */
export function chatTemplates(): readonly ChatTemplate[] {
  table ??= Table.parse(builtinTemplates).templates;
  return table;
}

/** The chat template a model renders its requests with, by id prefix; undefined when none is known. */
export function chatTemplateForModel(model: string): ChatTemplate | undefined {
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  let best: { template: ChatTemplate; length: number } | undefined;
  for (const template of chatTemplates())
    for (const prefix of template.models)
      if (id.startsWith(prefix) && (!best || prefix.length > best.length)) best = { template, length: prefix.length };
  return best?.template;
}
