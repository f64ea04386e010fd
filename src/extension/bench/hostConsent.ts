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

  /**
   * true when this endpoint's key may go to its host; asks once per (key, host) and remembers. Keys
   * are stored per endpoint name, so the name is part of the decision: approving a host for one key
   * says nothing about another (a workspace endpoint named like the user's `openai` and pointed at a
   * host approved for a local key must not get the OpenAI key unasked).
   */
  async mayReceiveKey(endpointName: string, baseUrl: string): Promise<boolean> {
    const host = hostOf(baseUrl);
    const decision = `${endpointName} → ${host}`;
    const known = this.decisions()[decision];
    if (known) return known === 'allow';
    const answer = await this.ask(endpointName, host);
    if (!answer) return false; // dismissed: ask again next time
    await this.store.update(KEY, { ...this.decisions(), [decision]: answer });
    return answer === 'allow';
  }
}
