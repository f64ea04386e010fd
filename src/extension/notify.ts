import * as vscode from 'vscode';
import { notificationText } from '../core/markdown';

/*
 * The extension's notifications. Their text often quotes prompt files, settings or endpoint replies,
 * and VS Code renders `[label](link)` in it as a live link (command: links included), so every
 * message goes through notificationText.
 */

export function showInfo(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showInformationMessage(notificationText(message), ...items);
}

export function showWarning(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(notificationText(message), ...items);
}

export function showError(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showErrorMessage(notificationText(message), ...items);
}
