// The plain code block ways in that live in the editor: the applier (grammars read from the installed
// extension on the first code block, nothing at activation), the review diff and its commands, and the
// Markdown CodeLens. The clipboard command, @apply and the tool receive the returned deps.
import type * as vscode from 'vscode';
import type { ApplyService } from '../applyService';
import type { Feedback } from '../feedback';
import { extensionGrammars } from '../grammarSource';
import type { Log } from '../log';
import type { RealPathResolver } from '../workspaceBoundary';
import { AnswerApplier } from './answerApplier';
import { type CodeBlockDeps, registerCodeBlockLenses } from './codeBlockSources';
import { SnippetApplier } from './snippetApplier';
import { registerReviewCommands, SnippetReviews } from './snippetReview';

export function registerCodeBlocks(
  context: vscode.ExtensionContext,
  services: { log: Log; feedback: Feedback; applyService: ApplyService; resolveRealPath: RealPathResolver },
): CodeBlockDeps {
  const applier = new SnippetApplier(extensionGrammars(context.extensionUri), services.log, services.feedback);
  const reviews = new SnippetReviews(applier);
  registerReviewCommands(context, reviews);
  const answers = new AnswerApplier(applier, services.resolveRealPath, services.log, services.feedback);
  const deps: CodeBlockDeps = { applier, reviews, applyService: services.applyService, answers };
  registerCodeBlockLenses(context, deps);
  return deps;
}
