// The local simulator's worker thread: the core's simulated endpoint, off the extension host (it tokenizes
// every request it serves). The host sends the target to simulate; the thread answers with where it listens.
import { parentPort, workerData } from 'node:worker_threads';
import type { ResolvedTarget } from '../../core/estimate';
import { startSimulator } from '../../core/sim/server';
import { targetLatencyModel } from '../../core/sim/targetLatency';
import type { SimulatorReply, SimulatorWorkerData } from './simulatorProtocol';

const port = parentPort;
if (!port) throw new Error('simulator.worker must run as a worker thread');
const { target } = workerData as SimulatorWorkerData;
const send = (reply: SimulatorReply) => port.postMessage(reply);

startSimulator({
  port: 0,
  model: target.id,
  latency: targetLatencyModel(target as ResolvedTarget),
  log: (line) => send({ kind: 'log', line }),
}).then(
  (sim) => {
    send({ kind: 'listening', url: sim.url, model: sim.model });
    port.on('message', () => void sim.close().then(() => send({ kind: 'closed' })));
  },
  (error: unknown) => send({ kind: 'failed', error: error instanceof Error ? error.message : String(error) }),
);
