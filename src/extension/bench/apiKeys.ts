import * as vscode from 'vscode';
import { showInfo, showWarning } from '../notify';
import { readEndpoints } from './endpoints';

/** API keys live only in SecretStorage, one per endpoint name; never in settings, logs or views. */
export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  private key(endpoint: string): string {
    return `promptLens.apiKey.${endpoint}`;
  }

  get(endpoint: string): Thenable<string | undefined> {
    return this.secrets.get(this.key(endpoint));
  }

  store(endpoint: string, value: string): Thenable<void> {
    return this.secrets.store(this.key(endpoint), value);
  }

  delete(endpoint: string): Thenable<void> {
    return this.secrets.delete(this.key(endpoint));
  }
}

async function pickEndpointName(placeHolder: string, given?: string): Promise<string | undefined> {
  if (given) return given;
  const { endpoints } = readEndpoints();
  if (endpoints.length === 0) {
    void showWarning('Prompt Latency Lens: no endpoints configured in promptLens.endpoints.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    endpoints.map((e) => ({ label: e.name, description: e.baseUrl })),
    { placeHolder },
  );
  return pick?.label;
}

export function registerApiKeyCommands(keys: ApiKeys): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('promptLens.setApiKey', async (endpointName?: string, value?: string) => {
      const name = await pickEndpointName('Endpoint whose API key to set', endpointName);
      if (!name) return;
      const key =
        value ??
        (await vscode.window.showInputBox({
          prompt: `API key for ${name} (kept in VS Code's secret storage)`,
          password: true,
          ignoreFocusOut: true,
        }));
      if (!key) return;
      await keys.store(name, key);
      void showInfo(`Prompt Latency Lens: API key for ${name} saved in secret storage.`);
    }),
    vscode.commands.registerCommand('promptLens.clearApiKey', async (endpointName?: string) => {
      const name = await pickEndpointName('Endpoint whose API key to clear', endpointName);
      if (!name) return;
      await keys.delete(name);
      void showInfo(`Prompt Latency Lens: API key for ${name} cleared.`);
    }),
  ];
}
