import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { EndpointConfig } from '../../core/bench/endpoints';
import { parseTargetId, resolveTarget } from '../../core/estimate';
import { log } from '../log';
import type { ExtensionTables } from '../tables';
import type { SimulatorReply, SimulatorWorkerData } from './simulatorProtocol';

/** What `npm start` and `prompt-lens serve-sim` in the docs simulate too: one GPU, no key, no download. */
export const SIMULATOR_TARGET = 'llama-3.1-8b@1xh100-sxm';

/** A closing worker that does not answer within this is terminated anyway (its socket closes with it). */
const CLOSE_WAIT_MS = 2000;

/**
 * "Start Local Simulator": the core's simulated endpoint on 127.0.0.1 (a free port), in a worker thread,
 * offered to Benchmark This Prompt as an endpoint of this window session only — no setting is written.
 * It stops on "Stop Local Simulator" or when the extension deactivates.
 */
export class LocalSimulator implements vscode.Disposable {
  private running: Promise<{ worker: Worker; endpoint: EndpointConfig }> | undefined;
  private current: EndpointConfig | undefined;
  /** Which start is current: a stopped thread's late exit must not forget a newer one. */
  private generation = 0;

  constructor(
    private readonly tables: ExtensionTables,
    private readonly workerPath: string,
  ) {}

  /** The endpoint while the simulator listens; Benchmark This Prompt lists it beside promptLens.endpoints. */
  get endpoint(): EndpointConfig | undefined {
    return this.current;
  }

  /** Starts it, or returns the one already running. */
  async start(): Promise<EndpointConfig> {
    this.running ??= this.spawn().catch((error: unknown) => {
      this.running = undefined;
      throw error;
    });
    return (await this.running).endpoint;
  }

  private async spawn(): Promise<{ worker: Worker; endpoint: EndpointConfig }> {
    const generation = ++this.generation;
    const { tables } = await this.tables.get();
    const data: SimulatorWorkerData = { target: resolveTarget(parseTargetId(SIMULATOR_TARGET), tables) };
    const worker = new Worker(this.workerPath, { workerData: data });
    const listening = await new Promise<{ url: string; model: string }>((resolve, reject) => {
      worker.on('message', (reply: SimulatorReply) => {
        if (reply.kind === 'log') log.info(reply.line);
        else if (reply.kind === 'listening') resolve(reply);
        else if (reply.kind === 'failed') reject(new Error(reply.error));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (generation === this.generation) {
          this.running = undefined;
          this.current = undefined;
        }
        reject(new Error(`the simulator thread exited (${code})`));
      });
    });
    const endpoint: EndpointConfig = {
      name: vscode.l10n.t('Local simulator'),
      kind: 'openai-chat',
      baseUrl: listening.url,
      model: listening.model,
      target: SIMULATOR_TARGET,
    };
    if (generation === this.generation) this.current = endpoint;
    return { worker, endpoint };
  }

  /** Stops it; false when none was running. */
  async stop(): Promise<boolean> {
    const running = this.running;
    if (!running) return false;
    this.generation++;
    this.running = undefined;
    this.current = undefined;
    const { worker } = await running.catch(() => ({ worker: undefined }));
    if (!worker) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      worker.on('message', (reply: SimulatorReply) => {
        if (reply.kind === 'closed') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.postMessage('close');
    });
    await worker.terminate();
    return true;
  }

  dispose(): void {
    void this.stop();
  }
}
