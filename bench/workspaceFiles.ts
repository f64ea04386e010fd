// The generated workspace of bench/findings.bench.ts and bench/workspace.bench.ts: prompt files of
// ~5,000 tokens (40 shared system prompts of ~3,000 tokens, a unique ~2,000-token user part each;
// every tenth file starts with a date). Deterministic: the same files on every run.

const SYSTEMS = 40;

function generator(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >>> 8) % n;
  };
}

const VOCABULARY = (
  'the customer order refund policy answer question support agent team product shipping delivery account ' +
  'invoice warranty return item price payment card address email phone store online service issue case ' +
  'always never only must should can will may please thank explain confirm check offer note include cite ' +
  'document section step rule limit approve escalate summary reply tone brief clear friendly precise days ' +
  'within after before about from with without for to of in on at by and or but if when while because so'
).split(' ');

/** English-like text, a sentence per line, as prompts are written. */
function prose(random: (n: number) => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = VOCABULARY[random(VOCABULARY.length)] as string;
    out.push(random(12) === 0 ? `${w}.\n${random(5) === 0 ? `Rule ${random(500)}:` : 'Then'}` : w);
  }
  return out.join(' ');
}

/** `count` files; `words` scales each part (1: ~3,000 + ~2,000 tokens). */
export function generateWorkspace(count: number, words = 1): Array<{ path: string; text: string }> {
  const random = generator(42);
  const systems = Array.from({ length: SYSTEMS }, () => prose(random, Math.round(2450 * words)));
  return Array.from({ length: count }, (_, i) => {
    const top = i % 10 === 0 ? `Today is 2025-03-${String((i % 28) + 1).padStart(2, '0')}.\n` : '';
    return {
      path: `prompts/p${i}.prompt`,
      text: `system:\n${top}${systems[i % SYSTEMS]}\nuser:\n${prose(random, Math.round(1650 * words))}\n`,
    };
  });
}
