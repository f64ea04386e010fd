import type { ResolvedTarget } from '../../core/estimate';

/** What the host gives the simulator worker: the target whose estimates set the simulated latencies. */
export interface SimulatorWorkerData {
  target: ResolvedTarget;
}

/** What the simulator worker tells the host. */
export type SimulatorReply =
  | { kind: 'listening'; url: string; model: string }
  | { kind: 'failed'; error: string }
  | { kind: 'log'; line: string }
  | { kind: 'closed' };
