// The one table of user settings: key, type, default, range and the text users read. The editor reads
// `resilientApply.<key>` through it, the engine takes its defaults from it, the CLI checks its flags
// against the same ranges, and a unit test holds package.json's `contributes.configuration` to it.

interface SettingBase {
  /** The key under the `resilientApply.` section. */
  key: string;
  /** The setting's description in the Settings editor (Markdown). */
  description: string;
}

export interface NumberSetting extends SettingBase {
  type: 'number' | 'integer';
  default: number;
  minimum: number;
  maximum?: number;
}

/** A number that may be `null` (off), like a threshold that is off unless set. */
export interface OptionalNumberSetting extends SettingBase {
  type: 'optional-number';
  default: null;
  minimum: number;
  maximum: number;
}

export interface BooleanSetting extends SettingBase {
  type: 'boolean';
  default: boolean;
}

/** One of a few named values, like when to review an apply's changes. */
export interface ChoiceSetting extends SettingBase {
  type: 'string';
  default: string;
  enum: readonly string[];
  /** One description per value of `enum`, in its order. */
  enumDescriptions: readonly string[];
}

export type SettingSpec = NumberSetting | OptionalNumberSetting | BooleanSetting | ChoiceSetting;

export const SETTINGS = {
  minScore: {
    key: 'fuzzy.minScore',
    type: 'number',
    default: 0.5,
    minimum: 0,
    maximum: 1,
    description: 'Lowest similarity (0 to 1) a near-miss candidate needs to be offered. Lower shows weaker candidates.',
  },
  maxCandidates: {
    key: 'fuzzy.maxCandidates',
    type: 'integer',
    default: 3,
    minimum: 1,
    maximum: 20,
    description: 'How many near-miss candidates to offer per block (best first).',
  },
  autoApplyAbove: {
    key: 'fuzzy.autoApplyAbove',
    type: 'optional-number',
    default: null,
    minimum: 0.5,
    maximum: 1,
    description:
      'Off (`null`) by default: a block that matches only approximately always waits for your choice. Set a score (e.g. `0.95`) to apply a unique fuzzy candidate scoring at least this that also clearly beats the next one.',
  },
  autoApplyNormalized: {
    key: 'autoApplyNormalized',
    type: 'boolean',
    default: true,
    description:
      'Apply unique matches found after normalising trailing whitespace, indentation, quotes, unicode punctuation, line-number prefixes, sanitised tags or spacing between tokens. When off, those matches are offered as candidates instead (a match that differs only in line endings always applies).',
  },
  preserveQuoteStyle: {
    key: 'preserveQuoteStyle',
    type: 'boolean',
    default: true,
    description: "Write changed lines in the file's quote style (curly or straight, `'` or `\"`) when the block used another.",
  },
  pasteApplyByDefault: {
    key: 'paste.applyByDefault',
    type: 'boolean',
    default: true,
    description:
      'When pasted text holds SEARCH/REPLACE blocks, make **Apply SEARCH/REPLACE blocks** the default paste in code files. In Markdown and plain text it is always offered in the paste widget with plain text as the default.',
  },
  lineHintWindow: {
    key: 'lineHintWindow',
    type: 'integer',
    default: 20,
    minimum: 0,
    description: 'How many lines a `:start_line:` hint may be away from an occurrence and still pick it among several.',
  },
  review: {
    key: 'review',
    type: 'string',
    default: 'multiple',
    enum: ['always', 'multiple', 'never'],
    enumDescriptions: [
      'Review every apply that changes a document.',
      'Review an apply that changes more than one place of a document.',
      'Never: an apply is kept as a whole (Ctrl+Z undoes it).',
    ],
    description:
      'After an apply, mark each changed place (hunk) in the editor with **Keep** and **Undo** (one hunk, or all of them) until you have reviewed it.',
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

/** The values in effect; `autoApplyAbove` null = fuzzy candidates always wait for a choice. */
export type SettingValues = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { enum: readonly (infer V)[] }
    ? V
    : (typeof SETTINGS)[K]['type'] extends 'boolean'
      ? boolean
      : (typeof SETTINGS)[K]['type'] extends 'optional-number'
        ? number | null
        : number;
};

/** Whether `value` is inside the setting's range (integers whole); says what is wrong otherwise. */
export function outOfRange(spec: NumberSetting | OptionalNumberSetting, value: number): string | undefined {
  const integer = spec.type === 'integer';
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    return `must be ${integer ? 'a whole number' : 'a number'}`;
  }
  if (value < spec.minimum || (spec.maximum !== undefined && value > spec.maximum)) {
    return spec.maximum === undefined ? `must be at least ${spec.minimum}` : `must be between ${spec.minimum} and ${spec.maximum}`;
  }
  return undefined;
}

/** One setting's value from what the user wrote: the wrong type gives the default, a number out of range is clamped. */
export function settingValue(spec: SettingSpec, raw: unknown): boolean | number | string | null {
  if (spec.type === 'boolean') {
    return typeof raw === 'boolean' ? raw : spec.default;
  }
  if (spec.type === 'string') {
    return typeof raw === 'string' && spec.enum.includes(raw) ? raw : spec.default;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return spec.default;
  }
  const clamped = Math.min(spec.maximum ?? Infinity, Math.max(spec.minimum, raw));
  return spec.type === 'integer' ? Math.round(clamped) : clamped;
}

/** Every setting's value, reading each raw value by its key through `read` (e.g. a VS Code configuration). */
export function resolveSettings(read: (key: string) => unknown): SettingValues {
  const values: Record<string, boolean | number | string | null> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    values[name] = settingValue(spec, read(spec.key));
  }
  return values as SettingValues;
}
