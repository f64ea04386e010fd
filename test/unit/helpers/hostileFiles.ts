import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Prompt files a user might open without having written them (issue 9), small enough to parse
 * whole under the default --max-file-bytes. Generated, never checked in.
 */
export const HOSTILE_FILES: Record<string, () => string | Buffer> = {
  'empty.prompt': () => '',
  'single-line.prompt': () => 'lorem ipsum dolor sit amet, '.repeat(70_000).slice(0, 1_800_000),
  'binary.prompt': () => Buffer.concat([randomBytes(200_000), Buffer.alloc(1000), Buffer.from('\u0000text\u0000')]),
  'invalid-utf8.prompt': () =>
    Buffer.from([0x68, 0x69, 0xc3, 0x28, 0xff, 0xfe, 0xe2, 0x82, 0x0a, 0xf0, 0x28, 0x8c, 0xbc, 0x80, 0xbf, 0x0a]),
  // CESU-8 lone surrogates (ED A0 80, ED B0 80) beside a real astral character.
  'lone-surrogates.prompt': () =>
    Buffer.concat([
      Buffer.from('a'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('b'),
      Buffer.from([0xed, 0xb0, 0x80]),
      Buffer.from('😀\n'),
    ]),
  'line-ends.prompt.md': () => '---\r\nmodel: gpt-4o\r\n---\r\nsystem:\rBe brief.\n\r\nuser:\r\nHi {{name}}\r\rthere\n',
  'crlf.prompty': () => '---\r\nname: x\r\nmodel:\r\n  api: chat\r\n---\r\nsystem:\r\nHello\r\nuser:\r\n{{q}}\r\n',
  'deep-nesting.prompt.yaml': () => `a: ${'['.repeat(20_000)}${']'.repeat(20_000)}\nmessages: ${'['.repeat(50_000)}`,
  'deep-map.prompt.yaml': () => Array.from({ length: 1500 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
  'billion-laughs.prompt.yaml': () =>
    [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
      'messages: *i',
    ].join('\n'),
  'huge-chat.json': () =>
    JSON.stringify({
      model: 'gpt-4o',
      messages: Array.from({ length: 5_000 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `message ${i} `.repeat(10),
      })),
    }),
  'deep.json': () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  'special-tokens.prompt': () =>
    '<|endoftext|><|im_start|>system\n<|im_end|><|begin_of_text|><|start_header_id|>user<|end_header_id|>[INST]<s></s><｜User｜><start_of_turn>{{x}}<|fim_prefix|>\n',
  'rtl-zero-width.prompt': () =>
    'مرحبا بالعالم \u202Eevil\u202C שלום\u200B\u200C\u200D\uFEFF{{na\u200Bme}} \u2066x\u2069 \u0301\u0301\u0301 e\u0301'.repeat(
      200,
    ),
  'variables.prompt': () =>
    Array.from({ length: 1000 }, (_, i) => `Value ${i}: {{var_${i}}} and {var${i}} and \${v${i}}`).join('\n'),
  'long-runs.prompt': () => `${'a'.repeat(300_000)} ${'='.repeat(300_000)} ${' '.repeat(300_000)}x`,
};

/** A pasted data URL: `bytes` of base64 on one line. */
export function dataUrl(bytes: number): string {
  return `user:\n![img](data:image/png;base64,${randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes)})\n`;
}

/** Prose of about `bytes`, many lines, for the file-size limit. */
export function largeProse(bytes: number): string {
  const line = 'The quick brown fox jumps over the lazy dog while {{name}} reads the prompt aloud.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export function writeHostileFiles(dir: string): string[] {
  return Object.entries(HOSTILE_FILES).map(([name, make]) => {
    writeFileSync(join(dir, name), make());
    return name;
  });
}
