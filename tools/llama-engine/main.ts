import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { z } from 'zod';
import { DEFAULT_SHAPE, writeRandomLlama } from './randomLlama.ts';
import { serve } from './server.ts';

/**
 * `npm run llama-engine -- [--port 0] [--threads 1] [--sequences 4] [--context 4096] [--batch 256]
 *   [--model FILE.gguf] [--exit-with-stdin]`
 *
 * Starts llama.cpp (node-llama-cpp's prebuilt CPU binary) behind the OpenAI-compatible server and
 * prints one JSON line on stdout once it listens: {"baseUrl", "model", "threads", "sequences",
 * "contextSize", "modelFile", "modelBytes", "startupMs"}. Without --model it writes a random-weight
 * Llama GGUF to a temporary folder first and deletes it on exit. SIGINT/SIGTERM stop it, and so
 * does the end of stdin with --exit-with-stdin. Diagnostics go to stderr.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    threads: { type: 'string', default: '1' },
    sequences: { type: 'string', default: '4' },
    context: { type: 'string', default: '4096' },
    batch: { type: 'string', default: '256' },
    model: { type: 'string' },
    'model-id': { type: 'string', default: 'random-llama' },
    'exit-with-stdin': { type: 'boolean', default: false },
  },
  strict: true,
});
const count = (name: string, max: number) =>
  z.coerce
    .number()
    .int()
    .min(name === 'port' ? 0 : 1)
    .max(max)
    .catch(() => fail(`--${name}: a whole number up to ${max}`));
const port = count('port', 65535).parse(values.port);
const threads = count('threads', 64).parse(values.threads);
const sequences = count('sequences', 64).parse(values.sequences);
const contextSize = count('context', DEFAULT_SHAPE.contextLength).parse(values.context);
const batchSize = count('batch', contextSize).parse(values.batch);

function fail(message: string): never {
  process.stderr.write(`llama-engine: ${message}\n`);
  process.exit(2);
}

const started = performance.now();
const folder = values.model === undefined ? await mkdtemp(join(tmpdir(), 'prompt-lens-llama-')) : undefined;
const modelFile = values.model ?? join(folder!, 'random-llama.gguf');
const modelBytes = values.model === undefined ? await writeRandomLlama(modelFile) : undefined;
// Only the prebuilt CPU binary that npm installed: never a build from source, never a download.
const llama = await getLlama({
  gpu: false,
  build: 'never',
  usePrebuiltBinaries: true,
  skipDownload: true,
  progressLogs: false,
  maxThreads: threads,
  logLevel: LlamaLogLevel.error,
  logger: (level, message) => process.stderr.write(`llama.cpp ${level}: ${message}\n`),
});
const model = await llama.loadModel({ modelPath: modelFile });
// Each sequence gets its own `contextSize` KV cells (node-llama-cpp allocates sequences × contextSize).
const context = await model.createContext({
  contextSize,
  // Prefill in batches of 256 tokens: the working set of a batch stays in the CPU's caches, so each
  // prompt token costs the same at any length (one batch of a whole 1,000-token prompt made the
  // later tokens dearer); each extra batch adds one pass over the weights, a few ms.
  batchSize,
  sequences,
  threads,
  flashAttention: true,
});
const server = await serve({ model, context, modelId: values['model-id'], port });

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await llama.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// For a parent process (the tests): when it dies without signalling, its end of our stdin closes.
if (values['exit-with-stdin']) {
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

process.stdout.write(
  `${JSON.stringify({
    baseUrl: server.baseUrl,
    model: values['model-id'],
    threads,
    sequences,
    contextSize: context.contextSize,
    modelFile,
    ...(modelBytes !== undefined ? { modelBytes } : {}),
    startupMs: Math.round(performance.now() - started),
  })}\n`,
);
