import type { HardwareRow } from './schemas';

/** What a user knows of their CPU: cores, 16-bit GFLOP/s per core, memory bandwidth in GB/s. */
export interface CpuSize {
  cores?: number;
  gflopsPerCore?: number;
  bandwidthGBs?: number;
}

/**
 * A CPU row resized: FLOP/s follow cores × GFLOP/s per core, the bandwidth is replaced. Only rows of
 * vendor `cpu` can be sized; anything else is returned as it is, with the reason.
 */
export function sizeCpu(row: HardwareRow, size: CpuSize): { row: HardwareRow; refused?: string } {
  if (row.vendor !== 'cpu') return { row, refused: `hardware '${row.id}' is not a CPU row (vendor ${row.vendor})` };
  const base = row.cpu ?? { cores: 1, gflopsPerCore: row.flops.bf16 / 1e9 };
  const cpu = { cores: size.cores ?? base.cores, gflopsPerCore: size.gflopsPerCore ?? base.gflopsPerCore };
  return {
    row: {
      ...row,
      cpu,
      flops: { bf16: cpu.cores * cpu.gflopsPerCore * 1e9 },
      memoryBandwidth: size.bandwidthGBs !== undefined ? size.bandwidthGBs * 1e9 : row.memoryBandwidth,
      source: `${row.source}; sized: ${cpu.cores} cores × ${cpu.gflopsPerCore} GFLOP/s${size.bandwidthGBs !== undefined ? `, ${size.bandwidthGBs} GB/s` : ''}`,
    },
  };
}
