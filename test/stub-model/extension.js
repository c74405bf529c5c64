// TEST ONLY (never shipped): one language model that answers with a fixed line. VS Code 1.139's extension
// host refuses to hand a chat request to any participant unless the request carries a model, and a
// signed-out VS Code has none; @apply never calls the model, so a stub is enough to get the real Chat view
// to deliver `@apply ...` requests in the UI tests. Installed into the test server's extensions folder by
// test/runVsCode.mjs (only for UI tests that ask for it), never loaded as a development extension.
const vscode = require('vscode');

const MODEL = {
  id: 'test-stub-model',
  name: 'Test Stub',
  family: 'test-stub',
  version: '1.0.0',
  maxInputTokens: 100000,
  maxOutputTokens: 1000,
  isUserSelectable: true,
  // The Chat view in agent mode lists only tool-calling models.
  capabilities: { toolCalling: true, imageInput: false },
};

function activate(context) {
  const provider = {
    provideLanguageModelChatInformation: async () => [MODEL],
    provideLanguageModelChatResponse: async (_model, _messages, _options, progress) => {
      progress.report(new vscode.LanguageModelTextPart('(test stub model: no answer)'));
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4),
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('test-stub', provider));
  // 1.139 resolves a vendor's models only when someone asks for them.
  void vscode.lm.selectChatModels({ vendor: 'test-stub' });
}

module.exports = { activate, deactivate() {} };
