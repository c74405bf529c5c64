// Names of declarations whose grammar gives no `name` field (languages.ts DeclRule.naming): a CSS rule is
// named by its selectors and an at-rule by its prelude, a Ruby `def self.x` by its receiver and name, a C or
// C++ function by its declarator (`Circle::area` for a method defined outside its class).

import type * as TreeSitter from 'web-tree-sitter';

type SyntaxNode = TreeSitter.Node;

/** How a declaration's name is read when the node has no `name` field. */
export type Naming = 'header' | 'receiver' | 'declarator' | 'field';

/** Declarator nodes that hold the name itself (not a further declarator). */
const NAME_NODES =
  /^(identifier|field_identifier|qualified_identifier|destructor_name|operator_name|template_function|template_method|type_identifier)$/;

/** The innermost function declarator of a C/C++ declaration (through pointers, references, parentheses). */
export function functionDeclarator(node: SyntaxNode): SyntaxNode | undefined {
  let at: SyntaxNode | null = node.childForFieldName('declarator');
  for (let depth = 0; at && depth < 8; depth++) {
    if (at.type === 'function_declarator') {
      return at;
    }
    at = at.childForFieldName('declarator') ?? at.namedChildren.find((c) => c !== null && /declarator$/.test(c.type)) ?? null;
  }
  return undefined;
}

/** Nodes that declare one name of a field or constant declaration (C#, PHP). */
const DECLARATOR_NODES = /^(variable_declarator|property_element|const_element)$/;

/**
 * The name a field declaration declares: its one declarator's (C#'s `_balances`, PHP's `balances` of
 * `$balances`), or the innermost name of a C++ member's declarator (`retries`, `*next`, `size()`).
 * Undefined for `int a, b;`: two names are no one declaration.
 */
function fieldName(node: SyntaxNode): string | undefined {
  const declarators: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (child && DECLARATOR_NODES.test(child.type)) {
      declarators.push(child);
    } else if (child?.type === 'variable_declaration') {
      declarators.push(...child.namedChildren.filter((c): c is SyntaxNode => c !== null && DECLARATOR_NODES.test(c.type)));
    }
  }
  if (declarators.length > 0) {
    const named =
      declarators.length === 1
        ? (declarators[0].childForFieldName('name') ??
          declarators[0].namedChildren.find((c) => c !== null && /^(identifier|name|variable_name)$/.test(c.type)))
        : undefined;
    return named?.text.replace(/^\$/, '');
  }
  if (node.childrenForFieldName('declarator').length !== 1) {
    return undefined;
  }
  let at: SyntaxNode | null = node.childForFieldName('declarator');
  for (let depth = 0; at && depth < 8; depth++) {
    if (NAME_NODES.test(at.type)) {
      return at.text.replace(/\s+/g, '');
    }
    at = at.childForFieldName('declarator') ?? at.namedChildren.find((c) => c !== null && /declarator$/.test(c.type)) ?? null;
  }
  return undefined;
}

/** The text of `node`'s children before the first of type `bodyType`, white space collapsed (`.a,\n.b` is `.a, .b`). */
function headerText(node: SyntaxNode, bodyType: string | undefined): string | undefined {
  const parts: string[] = [];
  for (const child of node.children) {
    if (!child || child.type === bodyType || child.type === 'comment') {
      break;
    }
    parts.push(child.text);
  }
  const text = parts
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .trim();
  return text === '' ? undefined : text;
}

/** The name `naming` reads from `node`; undefined when it has none. */
export function nameByRule(node: SyntaxNode, naming: Naming, bodyType: string | undefined): string | undefined {
  switch (naming) {
    case 'header':
      return headerText(node, bodyType);
    case 'receiver': {
      const name = node.childForFieldName('name')?.text;
      const object = node.childForFieldName('object')?.text;
      return name && object ? `${object}.${name}` : name;
    }
    case 'field':
      return fieldName(node);
    case 'declarator': {
      const declarator = functionDeclarator(node)?.childForFieldName('declarator');
      return declarator && NAME_NODES.test(declarator.type) ? declarator.text.replace(/\s+/g, '') : undefined;
    }
  }
}
