// The analysis worker thread: runs the core's AnalysisEngine for the extension host, which sends
// EngineRequests and gets one EngineReply each. Vocabularies load here, never in the host.
import './yieldToHost';
import { parentPort } from 'node:worker_threads';
import { AnalysisEngine } from '../../core/analysis/engine';
import type { EngineReply, EngineRequest } from './engineProtocol';

const engine = new AnalysisEngine();
const port = parentPort;
if (!port) throw new Error('analysis.worker must run as a worker thread');

port.on('message', (request: EngineRequest) => {
  const reply = (message: EngineReply) => {
    try {
      port.postMessage(message);
    } catch (error) {
      // A result that cannot be cloned is a bug; the host still gets an answer, not a hang.
      port.postMessage({ id: request.id, error: `${request.method}: ${(error as Error).message}` });
    }
  };
  Promise.resolve()
    .then(() => (engine[request.method] as (...args: unknown[]) => unknown).apply(engine, request.args))
    .then(
      (result) => reply({ id: request.id, result }),
      (error: unknown) => reply({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
});
