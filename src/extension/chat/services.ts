// The chat participant and the LM tool use the same ApplyService and PendingStore as the editor mode.
// activate() creates them and returns them as the extension's API; chat code runs only after activation
// (a chat request, a tool call or a button click), so it reads them from there instead of making copies.
import * as vscode from 'vscode';
import type { ResilientApplyApi } from '../extension';
import { EXTENSION_ID } from '../constants';

export function sharedServices(): ResilientApplyApi {
  const api = vscode.extensions.getExtension<ResilientApplyApi>(EXTENSION_ID)?.exports;
  if (!api || !api.applyService) {
    throw new Error('Resilient Apply is still starting; try again in a moment.');
  }
  return api;
}
