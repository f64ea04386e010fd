// Imported first by analysis.worker.ts (and by the workspace bench's worker), before the engine's modules load: the
// worker lowers its priority before any work of its own, so the host and the workbench win the cores from the start.
import { yieldToHostThread } from '../../core/analysis/threadPriority';

yieldToHostThread();
