import type { AnalysisEngine } from '../../core/analysis/engine';

/** The engine methods the extension host calls in the analysis worker. */
export type EngineMethod =
  | 'configure'
  | 'count'
  | 'edit'
  | 'findings'
  | 'scanPacked'
  | 'recount'
  | 'countText'
  | 'benchMessages'
  | 'compare'
  | 'report'
  | 'forget';
export type EngineApi = Pick<AnalysisEngine, EngineMethod>;

export interface EngineRequest {
  id: number;
  method: EngineMethod;
  args: unknown[];
}

export type EngineReply = { id: number; result: unknown } | { id: number; error: string };
