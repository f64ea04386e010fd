import { parseArgs } from 'node:util';
import { EXIT, type CliIo } from '../io';
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
    class: h.class,
    memoryGB: h.memoryBytes / 1e9,
    bf16Tflops: h.flops.bf16 / 1e12,
    bandwidthTBs: h.memoryBandwidth / 1e12,
    usdPerHour: h.usdPerHour.value,
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
      `${JSON.stringify({ syntax: { selfHosted: 'MODEL@[Nx]HARDWARE[:PRECISION]', provider: 'PROVIDER/MODEL' }, models, hardware, providers }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const lines = [
    'Self-hosted targets: MODEL@[Nx]HARDWARE[:PRECISION], e.g. llama-3.1-70b@4xh100-sxm:fp8',
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
        `  ${h.id.padEnd(12)} ${`${h.memoryGB} GB`.padEnd(8)} ${`${h.bf16Tflops} TFLOP/s bf16`.padEnd(20)} ${`${h.bandwidthTBs} TB/s`.padEnd(11)} $${h.usdPerHour}/h`,
    ),
    '',
    'Providers (PROVIDER/MODEL, $ per 1M input/output):',
    ...providers.map((p) => `  ${p.id.padEnd(36)} $${p.inputPerM}/$${p.outputPerM}  caching: ${p.caching}`),
    '',
  ];
  io.out(lines.join('\n'));
  return EXIT.ok;
}
