import type { PromptCount } from '../count';
import { formatCount } from '../format';

type TemplateFields = Pick<PromptCount, 'exact' | 'templateTokens' | 'template' | 'templateError'>;

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
 * "Llama 3.1 / 3.3 Instruct chat template, assumed add_generation_prompt=true, date_string unset (…)": which template
 * the count rendered and the arguments it assumed where a server could pass others; or why no template applied.
 */
export function templateBasis(count: TemplateFields): string | undefined {
  if (count.template) return `${count.template.name} chat template, assumed ${count.template.assumed.join(', ')}`;
  if (count.templateError) return `chat template not applied (${count.templateError}): counted as text + chat overhead`;
  return undefined;
}
