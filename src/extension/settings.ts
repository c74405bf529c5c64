// Reads the resilientApply.* settings and turns them into engine options for one document.
import * as vscode from 'vscode';
import type { ApplyOptions } from '../core/types';
import { CONFIG_SECTION } from './constants';

export interface EditorSettings {
  minScore: number;
  maxCandidates: number;
  /** null = fuzzy candidates are never applied without a choice. */
  autoApplyAbove: number | null;
  autoApplyNormalized: boolean;
  preserveQuoteStyle: boolean;
  pasteApplyByDefault: boolean;
  lineHintWindow: number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** The settings in effect for a resource (folder-level settings can differ in multi-root workspaces). */
export function readSettings(scope?: vscode.Uri): EditorSettings {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  const above = config.get<number | null>('fuzzy.autoApplyAbove', null);
  return {
    minScore: clamp(config.get<number>('fuzzy.minScore', 0.5), 0, 1),
    maxCandidates: Math.round(clamp(config.get<number>('fuzzy.maxCandidates', 3), 1, 20)),
    autoApplyAbove: typeof above === 'number' ? clamp(above, 0, 1) : null,
    autoApplyNormalized: config.get<boolean>('autoApplyNormalized', true),
    preserveQuoteStyle: config.get<boolean>('preserveQuoteStyle', true),
    pasteApplyByDefault: config.get<boolean>('paste.applyByDefault', true),
    lineHintWindow: Math.round(clamp(config.get<number>('lineHintWindow', 20), 0, 100000)),
  };
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
    options.fuzzyApply = settings.autoApplyAbove;
  }
  return options;
}
