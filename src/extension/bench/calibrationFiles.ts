import * as vscode from 'vscode';
import { showError, showInfo } from '../notify';
import { MIN_R2, r2Text } from '../../core/calibrate/fit';
import { calibrationFileText, parseCalibrationFile, type CalibrationFile } from '../../core/calibrate/profileFile';
import { namesTarget, parseTargetId, resolveTarget, targetTokenizer, type ResolvedTarget } from '../../core/estimate';
import { readSettings } from '../settings';
import type { ExtensionTables } from '../tables';
import { CALIBRATION_MAX_AGE_DAYS, isStale, type Calibrations } from './calibrations';

/** A profile is a few kilobytes; anything far larger is not one, and is not read into memory. */
const MAX_PROFILE_BYTES = 1024 * 1024;

const filters = () => ({ [vscode.l10n.t('Calibration profile')]: ['json'] });

function fail(message: string): undefined {
  void showError(vscode.l10n.t('Prompt Latency Lens: {0}', message));
  return undefined;
}

/**
 * "Import Calibration…": a profile written by `prompt-lens calibrate` (or *Export Calibration…*),
 * validated, checked against its target, and stored for it; hovers then use it. `uri` and
 * `targetId` skip the dialogs (tests, other commands). Returns the stored profile.
 */
export async function importCalibration(
  tables: ExtensionTables,
  calibrations: Calibrations,
  uri?: vscode.Uri,
  targetId?: string,
): Promise<CalibrationFile | undefined> {
  const file =
    uri ??
    (
      await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: filters(),
        title: vscode.l10n.t('Import Calibration'),
      })
    )?.[0];
  if (!file) return undefined;
  const name = vscode.workspace.asRelativePath(file);
  let text: string;
  try {
    const stat = await vscode.workspace.fs.stat(file);
    if (stat.size > MAX_PROFILE_BYTES)
      return fail(`cannot import ${name}: ${stat.size} bytes is not a calibration profile (they are a few KB)`);
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (error) {
    return fail(`cannot read ${name}: ${(error as Error).message}`);
  }
  const parsed = parseCalibrationFile(text, name);
  if (!parsed.ok) return fail(`cannot import ${parsed.error}`);
  const profile = parsed.value;
  if (isStale(profile))
    return fail(
      `${name} was measured on ${profile.profile.date}, more than ${CALIBRATION_MAX_AGE_DAYS} days ago; estimates would not use it: calibrate again`,
    );
  if (profile.fit.r2 < MIN_R2)
    return fail(
      `${name}'s fit explains too little of the measured TTFT (${r2Text(profile.fit)}; the first must be at least ${MIN_R2})`,
    );
  const id = targetId ?? profile.target ?? (await pickTarget(name));
  if (id === undefined) return undefined;
  let target: ResolvedTarget;
  const { tables: loaded } = await tables.get();
  // Keyed as the hover resolves the target (the same default engine), so the hover finds it.
  const { engine, engineVersion } = readSettings().settings;
  const assume = { engine, ...(engineVersion !== undefined ? { engineVersion } : {}) };
  try {
    target = resolveTarget(parseTargetId(id), loaded, assume);
  } catch (error) {
    return fail(`cannot import ${name} for ${id}: ${(error as Error).message}`);
  }
  if (profile.target !== undefined && !namesTarget(profile.target, target, loaded, assume))
    return fail(`${name} calibrates ${profile.target}, not ${target.id}`);
  // The editor counts a target's prompts with the target's tokenizer; the profile's token map
  // starts from its own local tokenizer's counts, so the two must agree.
  const tokenizer = targetTokenizer(target);
  if (profile.tokens.localTokenizer !== tokenizer)
    return fail(
      `${name} maps ${profile.tokens.localTokenizer} counts to the endpoint's tokens, but ${target.id} counts with ${tokenizer}: calibrate with \`prompt-lens calibrate … --target ${target.id}\``,
    );
  await calibrations.set(target.id, profile);
  if (profile.correction && profile.correction.tokenizer === tokenizer)
    await calibrations.setCorrection(target.id, profile.correction);
  void showInfo(
    vscode.l10n.t(
      'Prompt Latency Lens: imported the calibration of {0} ({1}, {2}, R² {3}). Hovers now use it.',
      target.id,
      profile.endpoint.name,
      profile.profile.date,
      profile.fit.r2.toFixed(3),
    ),
  );
  return calibrations.get(target.id);
}

async function pickTarget(name: string): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    readSettings().settings.targets.map((id) => ({ label: id })),
    {
      title: vscode.l10n.t('{0} names no target: which target does it calibrate?', name),
      placeHolder: vscode.l10n.t('a target from promptLens.targets'),
    },
  );
  return picked?.label;
}

/**
 * "Export Calibration…": a stored profile, in the file format `prompt-lens estimate --calibration`
 * reads. `targetId` and `uri` skip the dialogs. Returns the path written.
 */
export async function exportCalibration(
  calibrations: Calibrations,
  targetId?: string,
  uri?: vscode.Uri,
): Promise<string | undefined> {
  const all = calibrations.all();
  const ids = Object.keys(all);
  if (ids.length === 0) {
    void showInfo(
      vscode.l10n.t(
        'Prompt Latency Lens: no calibration is stored yet: run Calibrate Endpoint… or Import Calibration… first.',
      ),
    );
    return undefined;
  }
  const id =
    targetId ??
    (
      await vscode.window.showQuickPick(
        ids.map((t) => {
          const stored = all[t]!;
          return {
            label: t,
            description: isStale(stored)
              ? vscode.l10n.t('{0}, {1} (stale)', stored.endpoint.name, stored.profile.date)
              : `${stored.endpoint.name}, ${stored.profile.date}`,
            detail: vscode.l10n.t(
              '{0} · {1} · n = {2}',
              r2Text(stored.fit),
              stored.fit.model,
              stored.tokens.basis === 'usage'
                ? vscode.l10n.t('endpoint tokens')
                : vscode.l10n.t('{0} tokens', stored.tokens.localTokenizer),
            ),
          };
        }),
        { title: vscode.l10n.t('Export Calibration') },
      )
    )?.label;
  if (id === undefined) return undefined;
  const profile = all[id];
  if (!profile) return fail(`no calibration is stored for ${id}`);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const suggested = `${id.replace(/[^\w.-]+/g, '_')}.calibration.json`;
  const target =
    uri ??
    (await vscode.window.showSaveDialog({
      filters: filters(),
      title: vscode.l10n.t('Export Calibration'),
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, suggested) } : {}),
    }));
  if (!target) return undefined;
  try {
    // The target's token correction travels with its profile (one file to move between machines).
    const correction = calibrations.correction(id);
    await vscode.workspace.fs.writeFile(
      target,
      new TextEncoder().encode(calibrationFileText(correction ? { ...profile, correction } : profile)),
    );
  } catch (error) {
    return fail(`cannot write ${target.fsPath}: ${(error as Error).message}`);
  }
  void showInfo(vscode.l10n.t('Prompt Latency Lens: exported the calibration of {0} to {1}.', id, target.fsPath));
  return target.fsPath;
}
