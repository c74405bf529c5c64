// YAML snippets merged by key (src/core/config/yaml.ts), one rule per test, on real files: a GitHub
// workflow from node_modules, a compose file and a Kubernetes manifest (test/fixtures/config).

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeYaml } from '../../src/core/config/yaml';
import type { ConfigMergeResult } from '../../src/core/config/types';

const ROOT = path.resolve(__dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const compose = read('test/fixtures/config/compose.yaml');
const k8s = read('test/fixtures/config/k8s.yaml');
const workflow = read('node_modules/reusify/.github/workflows/ci.yml');

function merged(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'merged' }> {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return result as Extract<ConfigMergeResult, { kind: 'merged' }>;
}

/** The lines of `after` that are not in `before` and the reverse (a line diff by multiset). */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (lines: string[]) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = count(before.split('\n'));
  const b = count(after.split('\n'));
  const diff = (x: Map<string, number>, y: Map<string, number>) =>
    [...x].flatMap(([l, n]) => new Array<string>(Math.max(0, n - (y.get(l) ?? 0))).fill(l));
  return { added: diff(b, a), removed: diff(a, b) };
}

test('yaml: a subtree with its parent keys sets the nested key in place, keeping its trailing comment (no second spec:)', () => {
  const result = merged(mergeYaml(k8s, 'spec:\n  replicas: 3\n'));
  assert.deepEqual(changedLines(k8s, result.text), {
    added: ['  replicas: 3 # scaled by the HPA in production'],
    removed: ['  replicas: 2 # scaled by the HPA in production'],
  });
  assert.deepEqual(result.changes, [{ path: ['spec', 'replicas'], action: 'set', line: 8 }]);
  assert.deepEqual(result.kept[0], { path: [], keys: ['apiVersion', 'kind', 'metadata'] });
  assert.deepEqual(result.kept[1], { path: ['spec'], keys: ['selector', 'template'] });
});

test('yaml: a new key goes after the key that precedes it in the snippet, indented as its siblings', () => {
  const result = merged(mergeYaml(k8s, 'spec:\n  replicas: 2\n  revisionHistoryLimit: 5\n'));
  assert.match(result.text, /\n {2}replicas: 2 # scaled by the HPA in production\n {2}revisionHistoryLimit: 5\n {2}selector:\n/);
  assert.deepEqual(
    result.changes.map((c) => [c.path.join('.'), c.action, c.line]),
    [
      ['spec.replicas', 'unchanged', 8],
      ['spec.revisionHistoryLimit', 'added', 9],
    ],
  );
});

test('yaml: a new key no snippet key precedes goes at the end of its mapping', () => {
  const result = merged(mergeYaml(compose, 'services:\n  db:\n    restart: always\n'));
  assert.deepEqual(changedLines(compose, result.text), { added: ['    restart: always'], removed: [] });
  assert.match(result.text, /POSTGRES_PASSWORD: shop\n {4}restart: always\n\nvolumes:/);
});

test('yaml: a list item with a name is merged by it: a container with a new image keeps its ports', () => {
  const snippet = 'spec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: ghcr.io/example/api:2.4.0\n';
  const result = merged(mergeYaml(k8s, snippet));
  assert.deepEqual(changedLines(k8s, result.text), {
    added: ['          image: ghcr.io/example/api:2.4.0'],
    removed: ['          image: ghcr.io/example/api:2.3.0'],
  });
});

test('yaml: a workflow step shown by its action (uses, without the @version) is updated, the other steps kept', () => {
  const snippet = 'jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v5\n        with:\n          persist-credentials: true\n';
  const result = merged(mergeYaml(workflow, snippet));
  const { added, removed } = changedLines(workflow, result.text);
  assert.deepEqual(added, ['      - uses: actions/checkout@v5', '          persist-credentials: true']);
  assert.deepEqual(removed, ['      - uses: actions/checkout@v4', '          persist-credentials: false']);
  // Only the test job's step changed: the legacy job's checkout is still v4.
  assert.equal(result.text.split('actions/checkout@v4').length, workflow.split('actions/checkout@v4').length - 1);
});

test('yaml: a new step with a name is added after the step that precedes it in the snippet', () => {
  const snippet = 'jobs:\n  test:\n    steps:\n      - name: Use Node.js\n      - name: Lint\n        run: npm run lint\n';
  const result = merged(mergeYaml(workflow, snippet));
  assert.deepEqual(changedLines(workflow, result.text), { added: ['      - name: Lint', '        run: npm run lint'], removed: [] });
  const test = result.text.slice(result.text.indexOf('  test:'));
  assert.ok(test.indexOf('- name: Lint') > test.indexOf('- name: Use Node.js'));
  assert.ok(test.indexOf('- name: Lint') < test.indexOf('- name: Install'));
});

test('yaml: a list of scalars shown whole replaces the list, keeping the flow style the snippet wrote', () => {
  const snippet = 'jobs:\n  test:\n    strategy:\n      matrix:\n        node-version: [20.x, 22.x, 24.x]\n';
  const result = merged(mergeYaml(workflow, snippet));
  assert.deepEqual(changedLines(workflow, result.text), {
    added: ['        node-version: [20.x, 22.x, 24.x]'],
    removed: ['        node-version: [18.x, 20.x, 22.x]'],
  });
});

test('yaml: a block list shown whole loses only the items it does not show; a placeholder makes it additive', () => {
  const file = 'install:\n  - ps: Install-Product node\n  - "npm install" # deps\n  - npm run build\n';
  const whole = merged(mergeYaml(file, 'install:\n  - "npm install"\n  - npm run build\n'));
  assert.equal(whole.text, 'install:\n  - "npm install" # deps\n  - npm run build\n');
  const additive = merged(mergeYaml(file, 'install:\n  # ...\n  - npm test\n'));
  assert.equal(additive.text, `${file}  - npm test\n`);
});

test('yaml: a bare key that fits two places is refused naming them; one that fits one place is set there', () => {
  const refused = mergeYaml(compose, 'image: postgres:17-alpine\n');
  assert.equal(refused.kind, 'refused');
  assert.equal(refused.kind === 'refused' && refused.reason, 'ambiguous');
  assert.match(refused.kind === 'refused' ? refused.message : '', /services\.web\.image \(line 5\), services\.db\.image \(line 14\)/);
  assert.deepEqual(refused.kind === 'refused' && refused.places?.map((p) => p.line), [5, 14]);
  const one = merged(mergeYaml(compose, '    POSTGRES_USER: admin\n'));
  assert.deepEqual(changedLines(compose, one.text), { added: ['      POSTGRES_USER: admin'], removed: ['      POSTGRES_USER: shop'] });
});

test("yaml: the file's quote style is kept for a changed string, and its trailing comment", () => {
  const result = merged(mergeYaml(compose, 'services:\n  db:\n    image: "postgres:17-alpine"\n'));
  assert.deepEqual(changedLines(compose, result.text), {
    added: ["    image: 'postgres:17-alpine' # keep in step with production"],
    removed: ["    image: 'postgres:16-alpine' # keep in step with production"],
  });
});

test('yaml: CRLF and a missing final newline are kept', () => {
  const file = 'a: 1\r\nb:\r\n  c: 2';
  assert.equal(merged(mergeYaml(file, 'b:\n  c: 3\n  d: 4\n')).text, 'a: 1\r\nb:\r\n  c: 3\r\n  d: 4');
});

test('yaml: an invalid snippet is refused with the parser message and its line and column', () => {
  const result = mergeYaml(compose, 'services:\n  web:\n    ports: [8080:80\n');
  assert.equal(result.kind, 'refused');
  assert.equal(result.kind === 'refused' && result.reason, 'invalid-snippet');
  assert.match(result.kind === 'refused' ? result.message : '', /^the snippet does not parse as YAML: .+ at line \d+, column \d+$/);
});

test('yaml: a multi-document file takes the snippet into the document of its kind (or that has its keys), else refuses', () => {
  const result = merged(mergeYaml(k8s, 'kind: Service\nspec:\n  type: LoadBalancer\n'));
  assert.deepEqual(changedLines(k8s, result.text), { added: ['  type: LoadBalancer'], removed: [] });
  assert.ok(result.text.indexOf('type: LoadBalancer') > result.text.indexOf('kind: Service'));
  // Without kind and name, the document that has the snippet's key paths (only the Deployment has replicas).
  assert.match(merged(mergeYaml(k8s, 'spec:\n  replicas: 4\n')).text, /replicas: 4 # scaled/);
  const refused = mergeYaml(k8s, 'metadata:\n  annotations:\n    team: platform\n');
  assert.equal(refused.kind === 'refused' && refused.reason, 'ambiguous');
  assert.match(refused.kind === 'refused' ? refused.message : '', /2 YAML documents.*kind and metadata\.name/);
});

test('yaml: a key with no value and a comment gets the value after its colon, the comment kept', () => {
  const file = '# funding\ngithub: [ljharb]\npatreon: # a Patreon username\nko_fi: # a Ko-fi username\n';
  const result = merged(mergeYaml(file, 'patreon: someone\nko_fi:\n  - a\n'));
  assert.equal(result.text, '# funding\ngithub: [ljharb]\npatreon: someone # a Patreon username\nko_fi: # a Ko-fi username\n  - a\n');
});

test('yaml: a snippet showing only what the file has leaves it byte for byte', () => {
  const result = merged(mergeYaml(workflow, 'name: ci\njobs:\n  test:\n    runs-on: ubuntu-latest\n'));
  assert.equal(result.text, workflow);
  assert.deepEqual(result.edits, []);
});
