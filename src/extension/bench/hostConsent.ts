// Before an API key first goes to a host, the user says yes once: a workspace setting must never
// be able to send the user's key somewhere new unseen. Kept free of `vscode` so it is unit-tested.

export type HostDecision = 'allow' | 'deny';

export interface ConsentStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

const KEY = 'promptLens.keyHosts';

/** `origin` is scheme://host:port — a key approved for https://api.x.com is not approved for http. */
function hostOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export class HostConsent {
  constructor(
    private readonly store: ConsentStore,
    private readonly ask: (endpointName: string, host: string) => Promise<HostDecision | undefined>,
  ) {}

  private decisions(): Record<string, HostDecision> {
    const raw = this.store.get(KEY);
    if (typeof raw !== 'object' || raw === null) return {};
    return Object.fromEntries(
      Object.entries(raw).filter((e): e is [string, HostDecision] => e[1] === 'allow' || e[1] === 'deny'),
    );
  }

  /** true when the key may go to this endpoint's host; asks once per host and remembers. */
  async mayReceiveKey(endpointName: string, baseUrl: string): Promise<boolean> {
    const host = hostOf(baseUrl);
    const known = this.decisions()[host];
    if (known) return known === 'allow';
    const answer = await this.ask(endpointName, host);
    if (!answer) return false; // dismissed: ask again next time
    await this.store.update(KEY, { ...this.decisions(), [host]: answer });
    return answer === 'allow';
  }
}
