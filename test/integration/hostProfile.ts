import { Session } from 'node:inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface Profile {
  /** Microseconds on the system's monotonic clock (as process.hrtime). */
  startTime: number;
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
    return longestStretch(await this.stopRaw(), (url) => url.includes(path));
  }

  /** Stops and returns the profile itself. */
  async stopRaw(): Promise<Profile> {
    const { profile } = (await this.post('Profiler.stop')) as { profile: Profile };
    this.session.disconnect();
    return profile;
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

/**
 * What a profiled thread did between two moments (microseconds on the monotonic clock, as process.hrtime / 1000), in
 * milliseconds by kind: `idle`, `gc`, `program` (native work outside JavaScript), else the first of `owners` (in
 * order) that claims a script anywhere on the sample's stack — so an API call made by an extension counts as that
 * extension's — else `other`.
 */
export function busyBetween(
  profile: Profile,
  fromUs: number,
  toUs: number,
  owners: ReadonlyArray<(url: string) => string | undefined>,
): Record<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const special: Record<string, string> = { '(idle)': 'idle', '(garbage collector)': 'gc', '(program)': 'program' };
  // By node: the best owner on its stack, as [its index in owners, its label].
  const best = new Map<number, [number, string]>();
  const bestOf = (id: number): [number, string] => {
    let known = best.get(id);
    if (!known) {
      const parent = parents.get(id);
      known = parent === undefined ? [owners.length, 'other'] : bestOf(parent);
      const url = nodes.get(id)!.callFrame.url;
      for (let i = 0; url && i < known[0]; i++) {
        const label = owners[i]!(url);
        if (label) {
          known = [i, label];
          break;
        }
      }
      best.set(id, known);
    }
    return known;
  };
  const out: Record<string, number> = {};
  let at = profile.startTime;
  profile.samples.forEach((sample, i) => {
    const previous = at;
    at += profile.timeDeltas[i] ?? 0;
    const from = Math.max(previous, fromUs);
    const to = Math.min(at, toUs);
    if (to <= from) return;
    const name = nodes.get(sample)!.callFrame.functionName;
    const kind = Object.hasOwn(special, name) ? special[name]! : bestOf(sample)[1];
    out[kind] = (out[kind] ?? 0) + (to - from) / 1000;
  });
  return out;
}
