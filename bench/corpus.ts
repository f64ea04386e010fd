// A deterministic mixed corpus (prose, code, CJK, JSON) for the tokenizer bench and error figures.

const PROSE = [
  "The committee reviewed the proposal on Tuesday, and it's likely they'll approve the revised budget of $12,450.",
  'You are a helpful assistant. Answer concisely, cite your sources, and say "I don\'t know" when unsure.',
  'Latency matters: a 300 ms time-to-first-token feels instant, while 3 s feels broken to most users.',
  'Résumé, naïve café — accents and em-dashes appear in real prompts more often than one would think.',
];
const CODE = [
  'export async function fetchUser(id: string): Promise<User> {\n  const res = await fetch(`/api/users/${id}`);\n  if (!res.ok) throw new Error(`HTTP ${res.status}`);\n  return (await res.json()) as User;\n}\n',
  'def tokenize(text):\n    """Split text into words."""\n    return [w.lower() for w in text.split() if w]\n\n',
  'for (let i = 0; i < 10; i++) {\r\n\tconsole.log(i * 42); // CRLF and tabs\r\n}\r\n',
];
const CJK = [
  '你好，世界。这是一个用于测试分词器的中文句子，包含标点符号。',
  '日本語のテキストも含まれています。トークン数を数えます。',
  '한국어 문장도 포함되어 있습니다. 😀🎉👋🏽',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** About `size` UTF-16 units of mixed text; the same for the same seed. */
export function mixedCorpus(size = 1_000_000, seed = 42): string {
  const next = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const kind = i % 4;
    const part =
      kind === 0
        ? `${pick(PROSE)} ${pick(PROSE)}\n\n`
        : kind === 1
          ? pick(CODE)
          : kind === 2
            ? `${pick(CJK)}\n`
            : `${JSON.stringify({ id: i, name: `item-${Math.floor(next() * 1e6)}`, tags: ['a', 'b'], price: Math.round(next() * 1e4) / 100, ok: next() > 0.5 })}\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, size);
}
