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
    void showWarning(vscode.l10n.t('Prompt Latency Lens: no endpoints configured in promptLens.endpoints.'));
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
      const name = await pickEndpointName(vscode.l10n.t('Endpoint whose API key to set'), endpointName);
      if (!name) return;
      const key =
        value ??
        (await vscode.window.showInputBox({
          prompt: vscode.l10n.t("API key for {0} (kept in VS Code's secret storage)", name),
          password: true,
          ignoreFocusOut: true,
        }));
      if (!key) return;
      await keys.store(name, key);
      void showInfo(vscode.l10n.t('Prompt Latency Lens: API key for {0} saved in secret storage.', name));
    }),
    vscode.commands.registerCommand('promptLens.clearApiKey', async (endpointName?: string) => {
      const name = await pickEndpointName(vscode.l10n.t('Endpoint whose API key to clear'), endpointName);
      if (!name) return;
      await keys.delete(name);
      void showInfo(vscode.l10n.t('Prompt Latency Lens: API key for {0} cleared.', name));
    }),
  ];
}
