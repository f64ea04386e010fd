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
});
export type ChatTemplate = z.infer<typeof TemplateRow>;

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
