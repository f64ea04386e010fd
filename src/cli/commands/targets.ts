import { parseArgs } from 'node:util';
import { DEFAULT_ENGINE } from '../../core/estimate';
import { EXIT, type CliIo } from '../io';

const SELF_HOSTED_SYNTAX = 'MODEL@[Nx]HARDWARE[:PRECISION][:tpNppM][+ENGINE]';
const round = (v: number) => Math.round(v * 100) / 100;
import { loadCliTables } from '../tables';

export const TARGETS_USAGE = 'prompt-lens targets [--table FILE] [--json]';

export async function targetsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, table: { type: 'string', multiple: true } },
    strict: true,
  });
  const tables = await loadCliTables(values.table ?? [], io);
  const models = [...tables.models.values()].map((m) => ({
    id: m.id,
    name: m.name,
    totalParamsB: m.totalParamsB,
    activeParamsB: m.activeParamsB,
    contextWindow: m.contextWindow,
    precisions: m.precisions,
    tokenizer: m.tokenizer,
  }));
  const hardware = [...tables.hardware.values()].map((h) => ({
    id: h.id,
    name: h.name,
    vendor: h.vendor,
    family: h.family,
    memoryGB: h.memoryBytes / 1e9,
    bf16Tflops: h.flops.bf16 / 1e12,
    ...(h.flops.fp16 ? { fp16Tflops: h.flops.fp16 / 1e12 } : {}),
    bandwidthTBs: h.memoryBandwidth / 1e12,
    gpusPerNode: h.gpusPerNode,
    usdPerHour: h.usdPerHour?.value ?? null,
  }));
  const engines = [...tables.engines.values()].map((e) => ({
    id: e.id,
    name: e.name,
    versions: e.versions,
    class: e.class,
    runsOn: Object.keys((e.efficiencyFrom ? tables.engines.get(e.efficiencyFrom) : e)?.efficiency ?? {}),
    overheadMs: e.overheadMs,
    default: e.id === DEFAULT_ENGINE,
  }));
  const providers = [...tables.providers.values()].map((p) => ({
    id: p.id,
    name: p.name,
    inputPerM: p.prices.inputPerM,
    outputPerM: p.prices.outputPerM,
    caching: p.caching.mode,
    contextWindow: p.contextWindow,
  }));
  if (values.json) {
    io.out(
      `${JSON.stringify({ syntax: { selfHosted: SELF_HOSTED_SYNTAX, provider: 'PROVIDER/MODEL' }, models, hardware, engines, providers }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const lines = [
    `Self-hosted targets: ${SELF_HOSTED_SYNTAX}, e.g. llama-3.1-70b@4xh100-sxm:fp8+vllm`,
    '',
    'Models:',
    ...models.map(
      (m) =>
        `  ${m.id.padEnd(18)} ${`${m.activeParamsB}${m.activeParamsB !== m.totalParamsB ? `/${m.totalParamsB}` : ''}B`.padEnd(12)} ctx ${String(m.contextWindow).padEnd(8)} ${m.precisions.join(',')}`,
    ),
    '',
    'Hardware:',
    ...hardware.map(
      (h) =>
        `  ${h.id.padEnd(13)} ${`${h.memoryGB} GB`.padEnd(8)} ${`${round(h.bf16Tflops)} TFLOP/s bf16`.padEnd(21)} ${`${round(h.bandwidthTBs)} TB/s`.padEnd(11)} ${h.usdPerHour === null ? 'no price' : `$${h.usdPerHour}/h`}`,
    ),
    '',
    `Engines (+ENGINE; default ${DEFAULT_ENGINE}):`,
    ...engines.map(
      (e) =>
        `  ${e.id.padEnd(10)} ${e.name.padEnd(14)} ${e.class.padEnd(7)} runs on ${e.runsOn.join(', ').padEnd(28)} overhead ${e.overheadMs.engine} ms + ${e.overheadMs.server} ms HTTP`,
    ),
    '',
    'Providers (PROVIDER/MODEL, $ per 1M input/output):',
    ...providers.map((p) => `  ${p.id.padEnd(36)} $${p.inputPerM}/$${p.outputPerM}  caching: ${p.caching}`),
    '',
  ];
  io.out(lines.join('\n'));
  return EXIT.ok;
}
