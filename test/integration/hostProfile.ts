import { Session } from 'node:inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Stretch {
  ms: number;
  /** The functions that ran longest (self time) within it, heaviest first. */
  top: string[];
}

/**
 * A CPU profile of the extension host, to tell this extension's own work from everything else that
 * shares the thread (VS Code, built-in extensions, the tests): an event-loop delay alone cannot.
 */
export class HostProfile {
  private constructor(private readonly session: Session) {}

  static async start(intervalUs = 1000): Promise<HostProfile> {
    const session = new Session();
    session.connect();
    const profile = new HostProfile(session);
    await profile.post('Profiler.enable');
    await profile.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await profile.post('Profiler.start');
    return profile;
  }

  /** Stops and returns the longest run of consecutive samples that were inside code from `path`. */
  async stop(path: string): Promise<Stretch> {
    const { profile } = (await this.post('Profiler.stop')) as { profile: Profile };
    this.session.disconnect();
    return longestStretch(profile, (url) => url.includes(path));
  }

  private post(method: string, params: object = {}): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}

export function longestStretch(profile: Profile, ours: (url: string) => boolean): Stretch {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    let known = inside.get(id);
    if (known === undefined) {
      const parent = parents.get(id);
      known = ours(nodes.get(id)!.callFrame.url) || (parent !== undefined && isInside(parent));
      inside.set(id, known);
    }
    return known;
  };
  let best: { ms: number; samples: number[] } = { ms: 0, samples: [] };
  let run: { ms: number; samples: number[] } = { ms: 0, samples: [] };
  profile.samples.forEach((sample, i) => {
    if (!isInside(sample)) {
      run = { ms: 0, samples: [] };
      return;
    }
    // A sample's delta is the time since the previous one: the first of a run adds nothing.
    if (run.samples.length > 0) run.ms += (profile.timeDeltas[i] ?? 0) / 1000;
    run.samples.push(sample);
    if (run.ms > best.ms) best = run;
  });
  const self = new Map<string, number>();
  for (const sample of best.samples) {
    const frame = nodes.get(sample)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} (${frame.url.split('/').pop() ?? ''})`;
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  return {
    ms: Math.round(best.ms),
    top: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name]) => name),
  };
}
