import { splitFrontMatter } from '../prompt/frontMatter';
import { parseYaml } from '../prompt/yaml';
import { parseSloSettings, type SloSettings } from './profiles';

/** What a prompt's front matter says about its workload: the SLO it names, or why it could not be read. */
export interface FrontMatterProfile {
  slo?: SloSettings;
  problems: string[];
}

/**
 * The workload a prompt file names in its front matter: `profile: batch`, or the SLO object itself
 * (`profile: { profile: interactive, ttftMs: 800 }`). Malformed YAML is left to the prompt parser's diagnostics.
 */
export function promptSloSettings(text: string): FrontMatterProfile {
  const { yaml } = splitFrontMatter(text);
  if (!yaml) return { problems: [] };
  const value = parseYaml(yaml.text, yaml.range.start).value;
  const profile = value !== null && typeof value === 'object' ? (value as { profile?: unknown }).profile : undefined;
  if (profile === undefined) return { problems: [] };
  const parsed = parseSloSettings(typeof profile === 'string' ? { profile } : profile);
  return parsed.slo
    ? { slo: parsed.slo, problems: [] }
    : { problems: parsed.problems.map((p) => `front matter profile.${p}`) };
}
