/**
 * The static side of "imports only the SDK", read from the module's syntax tree (TypeScript's
 * parser): every import but the SDK's, and the ways around one a candidate might try — a dynamic
 * `import()`, `import.meta`, any reference to a host global that leads out of the language
 * (`process`, `globalThis`, `require`, `eval`, `Function`, `fetch`, …; aliasing one, `const p =
 * process` or `const { process: p } = globalThis`, is a reference too), the prototype chain
 * (`.constructor`, `__proto__`), Node's internals (`_stdout`, `binding`, `getBuiltinModule`, …)
 * and the `vm` module's entry points, by member name or as a string used as a key; and `console`
 * used as anything but `console.log / info / debug / warn / error`. Strings, comments and types
 * are not code: a prompt that mentions these words is not flagged. The sandbox stays the wall;
 * this check rejects a candidate before it runs and says why.
 */
import {
  isBindingElement,
  isCallExpression,
  isElementAccessExpression,
  isExportDeclaration,
  isExternalModuleReference,
  isIdentifier,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isMetaProperty,
  isNoSubstitutionTemplateLiteral,
  isPropertyAccessExpression,
  isStringLiteral,
  isTypeNode,
  SyntaxKind,
  type Node,
  type NodeArray,
  type SourceFile,
} from 'typescript/unstable/ast';
import { parseHarnessSource } from './syntax-tree.ts';
import { SDK_MODULE } from '../../strategies/harness/transpile.ts';

export interface SourceFinding {
  rule: string;
  line: number;
  text: string;
}

const byRule = (rule: string, names: string[]) => names.map((name): [string, string] => [name, rule]);

/** Host globals a harness may not name, by the rule that names them. */
const GLOBALS = new Map<string, string>([
  ...byRule('require', ['require']),
  ...byRule('process', ['process']),
  ...byRule('globalThis', ['globalThis', 'global', 'self', 'window']),
  ...byRule('code from strings', ['eval', 'Function']),
  ...byRule('module internals', ['module', 'exports', '__dirname', '__filename', 'Buffer', 'Deno', 'Bun']),
  ...byRule('WebAssembly', ['WebAssembly']),
  ...byRule('network', ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']),
]);

/**
 * Member names that lead out of the language, by rule: read with `.name`, `['name']`, a
 * destructuring key or a string key (a Map: `__proto__` cannot be an own key of an object literal).
 */
const MEMBERS = new Map<string, string>([
  ...byRule('prototype chain', [
    'constructor',
    '__proto__',
    '__defineGetter__',
    '__defineSetter__',
    '__lookupGetter__',
    '__lookupSetter__',
    'getPrototypeOf',
    'setPrototypeOf',
    'getOwnPropertyDescriptor',
    'getOwnPropertyDescriptors',
  ]),
  ...byRule('Node internals', [
    '_stdout',
    '_stderr',
    '_stdin',
    '_handle',
    'binding',
    '_linkedBinding',
    'dlopen',
    'mainModule',
    'getBuiltinModule',
    'createRequire',
    'prepareStackTrace',
  ]),
  ...byRule('vm', [
    'runInThisContext',
    'runInNewContext',
    'runInContext',
    'compileFunction',
    'createContext',
    'Script',
    'SourceTextModule',
    'SyntheticModule',
  ]),
]);

/** The console methods a harness may call (the runner turns them into log entries). */
const CONSOLE_METHODS = new Set(['log', 'info', 'debug', 'warn', 'error']);

/** Identifier positions that name a member or a label, not a value in scope. */
function namesMember(node: Node): boolean {
  const parent = node.parent as Node & { name?: Node; propertyName?: Node; label?: Node };
  switch (parent.kind) {
    case SyntaxKind.PropertyAccessExpression:
    case SyntaxKind.PropertyAssignment:
    case SyntaxKind.MethodDeclaration:
    case SyntaxKind.PropertyDeclaration:
    case SyntaxKind.GetAccessor:
    case SyntaxKind.SetAccessor:
    case SyntaxKind.EnumMember:
      return parent.name === node;
    case SyntaxKind.BindingElement:
      return parent.propertyName === node;
    case SyntaxKind.LabeledStatement:
    case SyntaxKind.BreakStatement:
    case SyntaxKind.ContinueStatement:
      return parent.label === node;
    case SyntaxKind.ImportSpecifier:
    case SyntaxKind.ExportSpecifier:
      return true;
    default:
      return false;
  }
}

/** The member name a node reads, when it reads a fixed one: `x.name`, `x['name']`, `{ name: y } = x`. */
function memberName(node: Node): string | null {
  if (isPropertyAccessExpression(node)) return isIdentifier(node.name) ? node.name.text : null;
  if (isElementAccessExpression(node)) {
    const key = node.argumentExpression;
    return isStringLiteral(key) || isNoSubstitutionTemplateLiteral(key) ? key.text : null;
  }
  if (isBindingElement(node) && node.propertyName && isIdentifier(node.propertyName)) return node.propertyName.text;
  return null;
}

/** Whether `console` here is the object of an allowed method read: `console.log`. */
function allowedConsoleUse(node: Node): boolean {
  const parent = node.parent;
  return (
    isPropertyAccessExpression(parent) &&
    parent.expression === node &&
    isIdentifier(parent.name) &&
    CONSOLE_METHODS.has(parent.name.text)
  );
}

/** A module specifier that is not the SDK, for an import, a re-export or `import x = require('…')`. */
function foreignImport(node: Node): string | null {
  let specifier: Node | undefined;
  if (isImportDeclaration(node) || isExportDeclaration(node)) specifier = node.moduleSpecifier;
  else if (isImportEqualsDeclaration(node))
    specifier = isExternalModuleReference(node.moduleReference)
      ? node.moduleReference.expression
      : node.moduleReference;
  if (!specifier) return null;
  const name = isStringLiteral(specifier) ? specifier.text : '(not a string)';
  return name === SDK_MODULE ? null : name;
}

/** Types, interfaces and type aliases: erased by the compiler, so not code (a class's `extends` clause is code). */
function erased(node: Node): boolean {
  if (node.kind === SyntaxKind.InterfaceDeclaration || node.kind === SyntaxKind.TypeAliasDeclaration) return true;
  return isTypeNode(node) && !(node.kind === SyntaxKind.ExpressionWithTypeArguments && isClassHeritage(node));
}

const isClassHeritage = (node: Node) =>
  node.parent.kind === SyntaxKind.HeritageClause &&
  (node.parent.parent.kind === SyntaxKind.ClassDeclaration || node.parent.parent.kind === SyntaxKind.ClassExpression);

/** Everything in a parsed module that breaks "imports only the SDK"; empty when it is clean. */
export function treeFindings(tree: SourceFile): SourceFinding[] {
  const lines = tree.text.split('\n');
  const findings: SourceFinding[] = [];
  const flag = (rule: string, node: Node, detail?: string) => {
    const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
    findings.push({ rule, line, text: detail ?? (lines[line - 1] ?? '').trim().slice(0, 160) });
  };
  const visit = (node: Node) => {
    const imported = foreignImport(node);
    if (imported !== null) flag('import', node, `imports "${imported}" (only ${SDK_MODULE} is allowed)`);
    if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) flag('dynamic import()', node);
    if (isMetaProperty(node) && node.keywordToken === SyntaxKind.ImportKeyword) flag('import.meta', node);
    if (isIdentifier(node) && !namesMember(node)) {
      const rule = GLOBALS.get(node.text);
      if (rule) flag(rule, node);
      if (node.text === 'console' && !allowedConsoleUse(node)) flag('console', node);
    }
    const member = memberName(node);
    if (member !== null && MEMBERS.has(member)) flag(MEMBERS.get(member) as string, node);
    if ((isStringLiteral(node) || isNoSubstitutionTemplateLiteral(node)) && MEMBERS.has(node.text)) {
      const parent = node.parent;
      // A key of `x['name']` is already counted with its access.
      if (!(isElementAccessExpression(parent) && parent.argumentExpression === node))
        flag(MEMBERS.get(node.text) as string, node);
    }
  };
  // Iterative: a deeply nested source must not overflow this process's stack.
  const stack: Node[] = [tree];
  const push = (child: Node) => void (erased(child) ? undefined : stack.push(child));
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    visit(node);
    node.forEachChild(push, (children: NodeArray<Node>) => void children.forEach(push));
  }
  return findings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}

/** Parses a harness's source and lists what breaks "imports only the SDK" (a source the parser cannot read is a finding too). */
export async function importFindings(source: string): Promise<SourceFinding[]> {
  const parsed = await parseHarnessSource(source);
  if (!parsed.ok) return [{ rule: 'parse', line: 1, text: parsed.error }];
  return treeFindings(parsed.tree);
}
