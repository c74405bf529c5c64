// The settings table (core/settings.ts) is the one place for keys, defaults, ranges and descriptions:
// package.json's contributes.configuration must say the same, and reading a raw value obeys the ranges.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { resolveSettings, settingValue, SETTINGS, type SettingSpec } from '../../src/core/settings';
import { applyBlocks } from '../../src/core/engine';

interface ManifestProperty {
  type: string | string[];
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  enumDescriptions?: string[];
  markdownDescription: string;
  scope?: string;
}

// out/test/unit -> repository root
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, ManifestProperty> } };
};
const properties = manifest.contributes.configuration.properties;
const specs = Object.values(SETTINGS) as SettingSpec[];

function manifestType(spec: SettingSpec): string | string[] {
  return spec.type === 'optional-number' ? ['number', 'null'] : spec.type;
}

describe('settings table and package.json', () => {
  test('every setting in the table is in the manifest with the same type, default, range and description', () => {
    for (const spec of specs) {
      const property = properties[`resilientApply.${spec.key}`];
      assert.ok(property, `resilientApply.${spec.key} is missing from package.json`);
      assert.deepEqual(property.type, manifestType(spec), spec.key);
      assert.deepEqual(property.default, spec.default, spec.key);
      assert.equal(property.markdownDescription, spec.description, spec.key);
      assert.equal(property.minimum, 'minimum' in spec ? spec.minimum : undefined, `${spec.key} minimum`);
      assert.equal(property.maximum, 'maximum' in spec ? spec.maximum : undefined, `${spec.key} maximum`);
      assert.deepEqual(property.enum, 'enum' in spec ? spec.enum : undefined, `${spec.key} enum`);
      assert.deepEqual(property.enumDescriptions, 'enum' in spec ? spec.enumDescriptions : undefined, `${spec.key} enumDescriptions`);
    }
  });

  test('the manifest has no setting the table lacks', () => {
    const keys = new Set(specs.map((s) => `resilientApply.${s.key}`));
    for (const key of Object.keys(properties)) {
      assert.ok(keys.has(key), `${key} is in package.json but not in core/settings.ts`);
    }
  });
});

describe('reading settings', () => {
  test('nothing set gives every default', () => {
    const values = resolveSettings(() => undefined);
    for (const [name, spec] of Object.entries(SETTINGS)) {
      assert.equal(values[name as keyof typeof values], spec.default, name);
    }
  });

  test('numbers are clamped into their range, integers rounded, wrong types fall back to the default', () => {
    // Generated over the table: whatever a user writes, the value in effect is inside the manifest's range.
    const raws: unknown[] = [-1e9, -1, 0, 0.2, 0.5, 0.75, 1, 1.5, 3.6, 25, 1e9, NaN, Infinity, '0.9', true, null, {}];
    for (const spec of specs) {
      for (const raw of raws) {
        const value = settingValue(spec, raw);
        if (spec.type === 'boolean') {
          assert.equal(value, typeof raw === 'boolean' ? raw : spec.default);
          continue;
        }
        if (spec.type === 'string') {
          assert.equal(value, spec.default, `${spec.key} <- ${String(raw)}`);
          continue;
        }
        if (typeof raw !== 'number' || !Number.isFinite(raw)) {
          assert.equal(value, spec.default, `${spec.key} <- ${String(raw)}`);
          continue;
        }
        assert.equal(typeof value, 'number');
        const n = value as number;
        assert.ok(n >= spec.minimum && n <= (spec.maximum ?? Infinity), `${spec.key} <- ${raw} gave ${n}`);
        if (spec.type === 'integer') {
          assert.ok(Number.isInteger(n), `${spec.key} <- ${raw} gave ${n}`);
        }
      }
    }
    assert.equal(settingValue(SETTINGS.autoApplyAbove, 0.2), 0.5, 'the manifest says 0.5..1');
    assert.equal(settingValue(SETTINGS.review, 'always'), 'always');
    assert.equal(settingValue(SETTINGS.review, 'sometimes'), 'multiple', 'a value outside the enum gives the default');
  });

  test("the engine's defaults are the table's: a near miss lists maxCandidates candidates at most", () => {
    const file = Array.from({ length: 12 }, (_, i) => `value${i} = compute(${i}, 'x');`).join('\n') + '\n';
    const r = applyBlocks(file, [{ index: 1, sourceLine: 1, search: "value = compute(5, 'y');", replace: 'z' }]);
    assert.equal(r.status, 'not_found');
    assert.ok(r.blocks[0].candidates.length > 0);
    assert.ok(r.blocks[0].candidates.length <= SETTINGS.maxCandidates.default);
  });
});
