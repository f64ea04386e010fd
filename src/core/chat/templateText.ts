import type { PromptCount } from '../count';
import { formatCount } from '../format';

type TemplateFields = Pick<PromptCount, 'exact' | 'templateTokens' | 'template' | 'templateError' | 'approximations'>;

/**
 * "template: +21": the tokens a chat template added to the messages' text (role markers, default system prompt,
 * date lines), as the hover and CodeLens show them. Undefined when the count did not render a template.
 */
export function templateAdded(count: TemplateFields): string | undefined {
  if (!count.template || count.templateTokens === undefined) return undefined;
  const n = count.templateTokens;
  return `template: ${count.exact ? '' : '≈'}${n < 0 ? '−' : '+'}${formatCount(Math.abs(n))}`;
}

/**
 * What a count rests on beyond its tokenizer, in words: "Llama 3.1 / 3.3 Instruct chat template, assumed
 * add_generation_prompt=true, date_string unset (…)" (the template rendered and the arguments assumed where a server
 * could pass others), or why no template applied; then why the count is approximate (declared tools or response
 * format without a published rule). Undefined when there is nothing to say.
 */
export function countBasis(count: TemplateFields): string | undefined {
  const said: string[] = [];
  if (count.template) said.push(`${count.template.name} chat template, assumed ${count.template.assumed.join(', ')}`);
  else if (count.templateError)
    said.push(`chat template not applied (${count.templateError}): counted as text + chat overhead`);
  if (count.approximations?.length) said.push(`approximate (≈): ${count.approximations.join('; ')}`);
  return said.length > 0 ? said.join('; ') : undefined;
}
