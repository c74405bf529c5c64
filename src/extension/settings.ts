// Reads the resilientApply.* settings (their table is core/settings.ts) and turns them into engine
// options for one document.
import * as vscode from 'vscode';
import { type ApplyOptions, resolveSettings, type SettingValues } from '../core';
import { CONFIG_SECTION } from './constants';

export type EditorSettings = SettingValues;

/** The settings in effect for a resource (folder-level settings can differ in multi-root workspaces). */
export function readSettings(scope?: vscode.Uri): EditorSettings {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return resolveSettings((key) => config.get(key));
}

/** Engine options for matching blocks against `document`; `label` is how messages name the file. */
export function engineOptions(document: vscode.TextDocument, label: string): ApplyOptions {
  const settings = readSettings(document.uri);
  const options: ApplyOptions = {
    fileName: label,
    languageId: document.languageId,
    lineHintWindow: settings.lineHintWindow,
    maxCandidates: settings.maxCandidates,
    minScore: settings.minScore,
    autoApplyNormalized: settings.autoApplyNormalized,
    preserveQuoteStyle: settings.preserveQuoteStyle,
  };
  if (settings.autoApplyAbove !== null) {
    options.autoApplyAbove = settings.autoApplyAbove;
  }
  return options;
}
