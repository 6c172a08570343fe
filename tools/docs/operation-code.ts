/**
 * What the code says about each operation, read with the TypeScript compiler:
 * where its handler is defined (api/handlers/index.ts's map), which domain
 * functions the handler's body uses, which workflows are reachable from it,
 * and which test files send a request to a route. Input of ./operations-index.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A function of our code, named as the index shows it. */
export interface CodeFunction {
  /** Relative to the repository, e.g. `domain/offers/service.ts`. */
  file: string;
  name: string;
}

export interface HandlerCode {
  operationId: string;
  handler: CodeFunction;
  /** Functions declared under domain/ that the handler's body names (called or passed on), in order of first use. */
  domain: CodeFunction[];
  /** Workflow types (OfferopsWorkflows keys) whose typed start is reachable from the handler, sorted. */
  workflows: string[];
}

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

/**
 * Functions that have Temporal start a workflow without naming its type (a
 * Temporal Schedule's trigger), by `file:name`, with the workflow they start.
 * Each must be reached from some handler, or reading the handlers fails.
 */
export const UNNAMED_STARTS: Readonly<Record<string, string>> = { 'domain/schedules/temporal.ts:triggerAndFind': 'scheduleRun' };

/** Folders whose functions the reachability walk follows: the API, the domain and the typed starts. */
const WALKED = /^(api|domain|temporal)\//;

/** The function a declaration defines: a function or method, or a variable holding an arrow or function expression. */
function functionOf(decl: ts.Declaration): FunctionNode | undefined {
  const node = ts.isVariableDeclaration(decl) ? decl.initializer : decl;
  if (!node) return undefined;
  const isFunction = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node);
  return isFunction && node.body ? (node as FunctionNode) : undefined;
}

/** The declaration an identifier names, through imports. */
function declarationOf(checker: ts.TypeChecker, id: ts.Identifier): ts.Declaration | undefined {
  let symbol = checker.getSymbolAtLocation(id);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.declarations?.[0];
}

/** A function-defining declaration's name: the function's, the method's or the variable's. */
function nameOf(decl: ts.Declaration): string {
  const name = ts.getNameOfDeclaration(decl);
  return name ? name.getText() : '(anonymous)';
}

/** The workflow types a function starts by name: each `OfferopsWorkflows['x']` in its signature or body. */
function startedWorkflows(fn: FunctionNode): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isIndexedAccessTypeNode(node) &&
      ts.isTypeReferenceNode(node.objectType) &&
      node.objectType.typeName.getText() === 'OfferopsWorkflows' &&
      ts.isLiteralTypeNode(node.indexType) &&
      ts.isStringLiteral(node.indexType.literal)
    ) {
      found.push(node.indexType.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

export class CodeReader {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;

  constructor(private readonly root: string) {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error(`cannot read ${join(root, 'tsconfig.json')}`);
    // Only the handler map and what it imports: the test files are read as syntax (requestsIn).
    this.program = ts.createProgram([join(root, 'api/handlers/index.ts')], config.options);
    this.checker = this.program.getTypeChecker();
  }

  private file(node: ts.Node): string {
    return relative(this.root, node.getSourceFile().fileName);
  }

  /** The functions of our walked folders that `node` names, each with its declaration. */
  private namedFunctions(node: ts.Node): { decl: ts.Declaration; fn: FunctionNode }[] {
    const out: { decl: ts.Declaration; fn: FunctionNode }[] = [];
    const visit = (n: ts.Node): void => {
      const decl = ts.isIdentifier(n) ? declarationOf(this.checker, n) : undefined;
      const fn = decl && !decl.getSourceFile().isDeclarationFile && WALKED.test(this.file(decl)) ? functionOf(decl) : undefined;
      if (decl && fn) out.push({ decl, fn });
      ts.forEachChild(n, visit);
    };
    visit(node);
    return out;
  }

  /** The UNNAMED_STARTS keys some handler reached. */
  private readonly reachedUnnamed = new Set<string>();

  /** Every workflow whose start the function reaches through the functions it names, transitively. */
  private reachableWorkflows(start: FunctionNode): string[] {
    const seen = new Set<FunctionNode>([start]);
    const queue = [start];
    const workflows = new Set<string>();
    for (let fn = queue.shift(); fn; fn = queue.shift()) {
      startedWorkflows(fn).forEach((w) => workflows.add(w));
      for (const next of this.namedFunctions(fn.body)) {
        if (seen.has(next.fn)) continue;
        seen.add(next.fn);
        queue.push(next.fn);
        const key = `${this.file(next.decl)}:${nameOf(next.decl)}`;
        const unnamed = UNNAMED_STARTS[key];
        if (!unnamed) continue;
        workflows.add(unnamed);
        this.reachedUnnamed.add(key);
      }
    }
    return [...workflows].sort();
  }

  /** The handlers of api/handlers/index.ts's `handlers` map, one per property, with what each reaches. */
  handlers(): HandlerCode[] {
    const index = this.program.getSourceFile(join(this.root, 'api/handlers/index.ts'));
    const map = index?.statements
      .filter(ts.isVariableStatement)
      .flatMap((s) => [...s.declarationList.declarations])
      .find((d) => d.name.getText() === 'handlers')?.initializer;
    if (!map || !ts.isObjectLiteralExpression(map)) throw new Error('api/handlers/index.ts has no `handlers` object');
    const handlers = map.properties.map((p) => {
      if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.initializer))
        throw new Error(`handlers: ${p.getText()} is not \`operationId: handler\``);
      const decl = declarationOf(this.checker, p.initializer);
      const fn = decl && functionOf(decl);
      if (!decl || !fn) throw new Error(`handlers: ${p.getText()} names no function`);
      const domain = new Map<string, CodeFunction>();
      for (const used of this.namedFunctions(fn.body)) {
        const f = { file: this.file(used.decl), name: nameOf(used.decl) };
        if (f.file.startsWith('domain/')) domain.set(`${f.file}:${f.name}`, f);
      }
      const handler = { file: this.file(decl), name: nameOf(decl) };
      return { operationId: p.name.getText(), handler, domain: [...domain.values()], workflows: this.reachableWorkflows(fn) };
    });
    const unreached = Object.keys(UNNAMED_STARTS).filter((k) => !this.reachedUnnamed.has(k));
    if (unreached.length > 0) throw new Error(`UNNAMED_STARTS (tools/docs/operation-code.ts): no handler reaches ${unreached.join(', ')}`);
    return handlers;
  }
}

/** A request a test sends: its method (lower case) and its path, `\0` standing for each `${…}` of a template. */
export interface TestRequest {
  method: string;
  path: string;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The text of a string or template literal, `\0` for each substitution; undefined for anything else. */
function literalText(node: ts.Expression | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `\0${s.literal.text}`).join('');
  return undefined;
}

/**
 * The requests a test file sends: `x.get|post|put|patch|delete(path, …)` and
 * `x.call('METHOD', path, …)` whose path is a literal or template starting with `/`.
 */
export function requestsIn(text: string): TestRequest[] {
  const source = ts.createSourceFile('test.ts', text, ts.ScriptTarget.ES2022, true);
  const out: TestRequest[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const method = name === 'call' ? literalText(node.arguments[0])?.toLowerCase() : name;
      const path = literalText(node.arguments[name === 'call' ? 1 : 0]);
      if (method && METHODS.has(method) && path?.startsWith('/')) out.push({ method, path });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The test files under test/ (`*.test.ts`), relative to the repository, sorted. */
export function testFiles(root: string): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join('test', f))
    .sort();
}

/** Each test file with the requests it sends. */
export function testRequests(root: string): Map<string, TestRequest[]> {
  return new Map(testFiles(root).map((f) => [f, requestsIn(readFileSync(join(root, f), 'utf8'))]));
}
