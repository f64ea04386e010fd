import * as vscode from 'vscode';
import { showError } from '../notify';
import {
  assumptionLabel,
  formatTargetId,
  memoryFit,
  parseTargetId,
  resolveTarget,
  TargetError,
  type ResolvedTarget,
  type Tables,
  type TargetAssumptions,
} from '../../core/estimate';
import { readSettings } from '../settings';
import type { ExtensionTables } from '../tables';

type TargetItem = vscode.QuickPickItem & { id?: string };

/** Makes `id` the primary target (first of promptLens.targets), in the scope that defines the list. */
export async function setPrimaryTarget(tables: ExtensionTables, id: unknown): Promise<string | undefined> {
  if (typeof id !== 'string') return undefined;
  try {
    resolveTarget(parseTargetId(id), (await tables.get()).tables);
  } catch (error) {
    void showError(vscode.l10n.t('Prompt Latency Lens: {0}', (error as Error).message));
    return undefined;
  }
  const config = vscode.workspace.getConfiguration('promptLens');
  const inspected = config.inspect<string[]>('targets');
  const scope =
    inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const current = readSettings().settings.targets;
  await config.update('targets', [id, ...current.filter((t) => t !== id)], scope);
  return id;
}

/** The active prompt's primary target, when its front matter's model chose it over the settings' first. */
export interface EffectivePrimary {
  id: string;
  /** The front-matter model that overrides the settings' primary target. */
  frontMatter?: string;
}

/**
 * The picker's placeholder and items. The star marks the primary target in effect for the active prompt; when its
 * front matter picks the model, the settings' primary is marked as overridden, and the placeholder says so.
 */
export function targetPicker(
  tables: Tables,
  current: readonly string[],
  effective?: EffectivePrimary,
  assume: TargetAssumptions = {},
): { placeHolder: string; items: TargetItem[] } {
  const items = targetItems(tables, current, assume);
  if (!effective?.frontMatter || effective.id === current[0])
    return {
      placeHolder: vscode.l10n.t(
        'Primary target (now {0}); type to filter, e.g. h100 or anthropic',
        current[0] ?? vscode.l10n.t('none'),
      ),
      items,
    };
  const frontMatter = effective.frontMatter;
  const marked = items.map((item) =>
    item.id === effective.id
      ? {
          ...item,
          description: vscode.l10n.t('$(star-full) primary for this prompt (front matter model: {0})', frontMatter),
        }
      : item.id === current[0]
        ? {
            ...item,
            description: vscode.l10n.t("$(circle-slash) settings' primary — overridden by this prompt's front matter"),
          }
        : item,
  );
  return {
    placeHolder: vscode.l10n.t(
      "Primary target in the settings: {0}; this prompt uses {1} (its front matter model: {2}). Pick the settings' primary; type to filter",
      current[0] ?? vscode.l10n.t('none'),
      effective.id,
      effective.frontMatter,
    ),
    items: marked,
  };
}

/**
 * Quick pick of every provider model and, per GPU type, each model at the fewest GPUs that fit it, each
 * naming the engine and scope it would assume.
 */
export function targetItems(tables: Tables, current: readonly string[], assume: TargetAssumptions = {}): TargetItem[] {
  const mark = (id: string) =>
    id === current[0]
      ? vscode.l10n.t('$(star-full) primary')
      : current.includes(id)
        ? vscode.l10n.t('$(check) selected')
        : undefined;
  const items: TargetItem[] = [];
  const byProvider = new Map<string, TargetItem[]>();
  for (const row of tables.providers.values()) {
    const list = byProvider.get(row.provider) ?? [];
    list.push({
      label: row.id,
      id: row.id,
      description: mark(row.id),
      detail: vscode.l10n.t(
        '${0}/${1} per M in/out · context {2} · caching {3}',
        row.prices.inputPerM,
        row.prices.outputPerM,
        row.contextWindow.toLocaleString('en-US'),
        row.caching.mode,
      ),
    });
    byProvider.set(row.provider, list);
  }
  for (const [provider, list] of byProvider)
    items.push({ label: vscode.l10n.t('API: {0}', provider), kind: vscode.QuickPickItemKind.Separator }, ...list);
  for (const hardware of tables.hardware.values()) {
    const list: TargetItem[] = [];
    for (const model of tables.models.values()) {
      const precision = model.precisions[0]!;
      const fitting = [1, 2, 4, 8]
        .map((gpus) => resolvable(formatTargetId({ model: model.id, hardware: hardware.id, gpus }), tables, assume))
        .find((t) => t?.kind === 'self-hosted' && memoryFit(t, 8192).weightsFit);
      if (fitting?.kind !== 'self-hosted') continue;
      const id = formatTargetId({ model: model.id, hardware: hardware.id, gpus: fitting.gpus });
      list.push({
        label: id,
        id,
        description: mark(id),
        detail: vscode.l10n.t(
          '{0} on {1}× {2} ({3}), the fewest GPUs that hold the weights · {4}',
          model.id,
          fitting.gpus,
          hardware.id,
          precision,
          assumptionLabel(fitting),
        ),
      });
    }
    if (list.length > 0)
      items.push(
        { label: vscode.l10n.t('Self-hosted: {0}', hardware.id), kind: vscode.QuickPickItemKind.Separator },
        ...list,
      );
  }
  // Current targets not in the generated list (other GPU counts, precisions) stay pickable.
  const listed = new Set(items.map((i) => i.id));
  const extra = current.filter((id) => !listed.has(id)).map((id) => ({ label: id, id, description: mark(id) }));
  return extra.length > 0
    ? [{ label: vscode.l10n.t('Current'), kind: vscode.QuickPickItemKind.Separator }, ...extra, ...items]
    : items;
}

/** The target, or undefined where the deployment cannot exist (no engine for the vendor, no interconnect). */
function resolvable(id: string, tables: Tables, assume: TargetAssumptions): ResolvedTarget | undefined {
  try {
    return resolveTarget(parseTargetId(id), tables, assume);
  } catch (error) {
    if (error instanceof TargetError) return undefined;
    throw error;
  }
}

export function registerTargetCommands(
  tables: ExtensionTables,
  activePrimary: () => Promise<EffectivePrimary | undefined>,
  use: (id: string) => Promise<unknown>,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('promptLens.selectTarget', async () => {
      const { tables: t } = await tables.get();
      const { targets: current, engine, scope } = readSettings().settings;
      const { placeHolder, items } = targetPicker(t, current, await activePrimary(), { engine, scope });
      const pick = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true });
      if (pick?.id) await use(pick.id);
    }),
    vscode.commands.registerCommand('promptLens.setPrimaryTarget', (id: unknown) => setPrimaryTarget(tables, id)),
  ];
}
