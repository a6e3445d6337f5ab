/**
 * `xsl:function` declarations of a rule set, compiled into native functions callable from XPath,
 * with XSLT 2.0's typing as Saxon-HE applies it:
 *
 * - arguments and the result pass the function conversion rules of their `as` type: atomization
 *   for atomic types, xs:untypedAtomic cast to the declared type, numeric promotion
 *   (xs:integer/xs:decimal to xs:double), then a type and cardinality check raising XPTY0004;
 *   a parameter or result without `as` is `item()*` and passes unchanged;
 * - the body is a sequence constructor of `xsl:variable` (with `select`, or with content: a
 *   temporary tree, or its `as`-converted value), `xsl:sequence`, `xsl:value-of` (a text node),
 *   `xsl:choose`/`xsl:when`/`xsl:otherwise`, `xsl:if` and literal text; variables are evaluated on
 *   first use, like rule lets;
 * - the context item is absent inside a function body (XPDY0002 when an expression needs it).
 *
 * Anything else in a declaration (another instruction, an attribute the engine does not honour,
 * an `as` type it cannot check, `xsl:key`) is refused when the schema is compiled, never skipped.
 */
import type { XsltDeclaration } from "../schematron/model.ts";
import { Kind, XDocument, XNode } from "./xpath/document.ts";
import { readXml } from "./xml-reader.ts";
import { CAST_TARGETS, castAtomic, stringOf, typeName, Untyped, type Atomic } from "./xpath/atomic.ts";
import { compileXPath } from "./xpath/compile.ts";
import { functionKey, Lazy, Scope, type Evaluate, type Focus, type Frame, type Runtime, type StylesheetFunction } from "./xpath/context.ts";
import { Dec } from "./xpath/decimal.ts";
import { fail, XPathError } from "./xpath/errors.ts";
import type { CompileSession } from "./xpath/session.ts";
import { atomize, effectiveBoolean, type Item, type Sequence } from "./xpath/values.ts";

const XSL_NS = "http://www.w3.org/1999/XSL/Transform";
const XS_NS = "http://www.w3.org/2001/XMLSchema";
const XMLNS_DECLARATION = /\bxmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Raised at compile time for a declaration the native engine does not implement. */
export class UnsupportedXslt extends XPathError {
  constructor(declaration: XsltDeclaration, what: string) {
    super("XTSE0010", `${declaration.kind} ${declaration.name} (${declaration.origin.file}:${declaration.origin.line}): ${what} is not supported natively`);
    this.name = "UnsupportedXslt";
  }
}

/** A conversion of a value to a declared sequence type, per the function conversion rules. */
type Conversion = (value: Sequence, what: string) => Sequence;

class NativeFunction implements StylesheetFunction {
  body: Evaluate = () => fail("XTDE0000", `function ${this.name} called before it was compiled`);
  frameSize = 0;
  /** What the conversions name in their errors, written once: a function may be called per line. */
  private readonly paramsWhat: string[];
  private readonly resultWhat: string;
  constructor(
    readonly name: string,
    readonly params: { name: string; convert: Conversion }[],
    readonly result: Conversion,
  ) {
    this.paramsWhat = params.map((param) => `parameter $${param.name} of ${name}()`);
    this.resultWhat = `the result of ${name}()`;
  }


  call(args: Sequence[], runtime: Runtime): Sequence {
    const locals: Frame = new Array(this.frameSize);
    for (let i = 0; i < args.length; i++) locals[i] = this.params[i].convert(args[i], this.paramsWhat[i]);
    const value = this.body(NO_FOCUS, { document: runtime.document, globals: runtime.globals, locals });
    return this.result(value, this.resultWhat);
  }
}

/** Inside a function the focus is absent. */
const NO_FOCUS: Focus = { item: undefined, position: 0, size: 0 };

/**
 * Compiles every `xsl:function` of a schema. Functions are registered before any body is compiled,
 * so bodies may call each other and themselves. Bodies resolve prefixes against the stylesheet's
 * bindings overlaid with the declaration's own, and may read the schema's global lets (`globals`);
 * they compile in the plan's `session`. Returns the function table the rule expressions resolve against.
 */
export function compileFunctions(
  declarations: XsltDeclaration[],
  stylesheetNamespaces: ReadonlyMap<string, string>,
  globals: ReadonlyMap<string, number>,
  session: CompileSession,
): Map<string, StylesheetFunction> {
  const table = new Map<string, StylesheetFunction>();
  const pending: { declaration: XsltDeclaration; element: XNode; fn: NativeFunction; namespaces: Map<string, string> }[] = [];
  for (const declaration of declarations) {
    if (declaration.kind !== "function") throw new UnsupportedXslt(declaration, `xsl:${declaration.kind}`);
    const namespaces = declarationNamespaces(declaration, stylesheetNamespaces);
    const element = readXml(declaration.xml).node.children.find((child) => child.kind === Kind.Element)!;
    if (element.ns !== XSL_NS || element.local !== "function") throw new UnsupportedXslt(declaration, `<${element.qname}> as a function declaration`);
    checkAttributes(declaration, element, ["name", "as", "override"]);
    const name = attribute(element, "name") ?? fail("XTSE0010", "xsl:function without a name");
    const colon = name.indexOf(":");
    if (colon < 0) throw new UnsupportedXslt(declaration, `a function name without a namespace prefix ("${name}")`);
    const uri = namespaces.get(name.slice(0, colon)) ?? fail("XTSE0280", `function ${name}: prefix not declared`);
    const params: { name: string; convert: Conversion }[] = [];
    for (const child of instructions(element)) {
      if (!isXsl(child, "param")) break;
      checkAttributes(declaration, child, ["name", "as", "required"]);
      const paramName = attribute(child, "name") ?? fail("XTSE0010", `a parameter of ${name} without a name`);
      if (child.children.some((node) => node.kind !== Kind.Comment && !(node.kind === Kind.Text && isWhitespace(node.value)))) {
        throw new UnsupportedXslt(declaration, `content in xsl:param $${paramName}`);
      }
      params.push({ name: paramName, convert: conversion(declaration, attribute(child, "as"), namespaces) });
    }
    const fn = new NativeFunction(name, params, conversion(declaration, attribute(element, "as"), namespaces, "XTTE0780"));
    const key = functionKey(uri, name.slice(colon + 1), params.length);
    if (table.has(key)) fail("XTSE0770", `function ${name}#${params.length} is declared twice`);
    table.set(key, fn);
    pending.push({ declaration, element, fn, namespaces });
  }
  for (const { declaration, element, fn, namespaces } of pending) {
    const scope = new Scope(session, namespaces, globals, table);
    for (const param of fn.params) scope.declare(param.name);
    const body = instructions(element).filter((child) => !isXsl(child, "param"));
    fn.body = compileConstructor(declaration, body, scope);
    fn.frameSize = scope.size;
  }
  return table;
}

/** The stylesheet's bindings with the declaration's own (serialized with it) on top. */
function declarationNamespaces(declaration: XsltDeclaration, stylesheet: ReadonlyMap<string, string>): Map<string, string> {
  const own = new Map<string, string>();
  for (const m of declaration.xml.matchAll(XMLNS_DECLARATION)) {
    const uri = m[2] ?? m[3];
    const bound = own.get(m[1]);
    if (bound !== undefined && bound !== uri) throw new UnsupportedXslt(declaration, `prefix "${m[1]}" bound to two namespaces inside one declaration`);
    own.set(m[1], uri);
  }
  return new Map([...stylesheet, ...own]);
}

/** Element and non-whitespace text children, comments and whitespace-only text dropped (XSLT strips them). */
function instructions(element: XNode): XNode[] {
  return element.children.filter((child) => child.kind === Kind.Element || (child.kind === Kind.Text && !isWhitespace(child.value)));
}

function isWhitespace(text: string): boolean {
  return /^[ \t\r\n]*$/.test(text);
}

function isXsl(node: XNode, local: string): boolean {
  return node.kind === Kind.Element && node.ns === XSL_NS && node.local === local;
}

function attribute(element: XNode, local: string): string | undefined {
  return element.attributes.find((a) => a.ns === "" && a.local === local)?.value;
}

function checkAttributes(declaration: XsltDeclaration, element: XNode, allowed: string[]): void {
  for (const a of element.attributes) {
    if (a.ns === "" && !allowed.includes(a.local)) throw new UnsupportedXslt(declaration, `attribute ${a.qname} on <${element.qname}>`);
  }
}

/**
 * A sequence constructor: each instruction's items, in order. A variable is in scope for its
 * following siblings (and what they contain) and bound lazily when control passes it.
 */
function compileConstructor(declaration: XsltDeclaration, nodes: XNode[], scope: Scope): Evaluate {
  const steps: ({ bind: Evaluate; slot: number } | { emit: Evaluate })[] = [];
  let declared = 0;
  for (const node of nodes) {
    if (node.kind === Kind.Text) {
      const text = [textNode(node.value)];
      steps.push({ emit: () => text });
      continue;
    }
    if (node.ns !== XSL_NS) throw new UnsupportedXslt(declaration, `literal result element <${node.qname}>`);
    switch (node.local) {
      case "variable": {
        checkAttributes(declaration, node, ["name", "select", "as"]);
        const name = attribute(node, "name") ?? fail("XTSE0010", "xsl:variable without a name");
        const value = compileBinding(declaration, node, scope, `variable $${name}`);
        steps.push({ bind: value, slot: scope.declare(name) });
        declared++;
        break;
      }
      case "sequence": {
        checkAttributes(declaration, node, ["select"]);
        if (instructions(node).length) throw new UnsupportedXslt(declaration, "xsl:sequence with content");
        steps.push({ emit: compileXPath(required(node, "select"), scope) });
        break;
      }
      case "value-of": {
        checkAttributes(declaration, node, ["select", "separator"]);
        if (instructions(node).length) throw new UnsupportedXslt(declaration, "xsl:value-of with content");
        const select = compileXPath(required(node, "select"), scope);
        const separator = attribute(node, "separator") ?? " ";
        steps.push({ emit: (focus, runtime) => [textNode(select(focus, runtime).map((item) => stringOf(atomize(item))).join(separator))] });
        break;
      }
      case "if": {
        checkAttributes(declaration, node, ["test"]);
        const test = compileXPath(required(node, "test"), scope);
        const then = compileConstructor(declaration, instructions(node), scope);
        steps.push({ emit: (focus, runtime) => (effectiveBoolean(test(focus, runtime)) ? then(focus, runtime) : EMPTY) });
        break;
      }
      case "choose": {
        checkAttributes(declaration, node, []);
        const branches: { test: Evaluate | null; body: Evaluate }[] = [];
        for (const branch of instructions(node)) {
          if (isXsl(branch, "when")) {
            checkAttributes(declaration, branch, ["test"]);
            branches.push({ test: compileXPath(required(branch, "test"), scope), body: compileConstructor(declaration, instructions(branch), scope) });
          } else if (isXsl(branch, "otherwise") && branches.length && branches.at(-1)!.test !== null) {
            checkAttributes(declaration, branch, []);
            branches.push({ test: null, body: compileConstructor(declaration, instructions(branch), scope) });
          } else throw new UnsupportedXslt(declaration, `<${branch.kind === Kind.Element ? branch.qname : "text"}> in xsl:choose`);
        }
        if (!branches.length || branches[0].test === null) fail("XTSE0010", "xsl:choose needs an xsl:when");
        steps.push({
          emit: (focus, runtime) => {
            for (const { test, body } of branches) if (test === null || effectiveBoolean(test(focus, runtime))) return body(focus, runtime);
            return EMPTY;
          },
        });
        break;
      }
      default:
        throw new UnsupportedXslt(declaration, `<${node.qname}>`);
    }
  }
  scope.release(declared);
  if (steps.length === 1 && "emit" in steps[0]) return steps[0].emit;
  return (focus, runtime) => {
    const out: Item[] = [];
    for (const step of steps) {
      if ("bind" in step) {
        const { bind } = step;
        runtime.locals[step.slot] = new Lazy(bind, focus, runtime);
      } else for (const item of step.emit(focus, runtime)) out.push(item);
    }
    return out;
  };
}

/**
 * An `xsl:variable`'s value: its `select`, or its content; with `as`, converted to that type;
 * content without `as` is a temporary tree (a document node) holding the content's text.
 */
function compileBinding(declaration: XsltDeclaration, node: XNode, scope: Scope, what: string): Evaluate {
  const select = attribute(node, "select");
  const content = instructions(node);
  if (select !== undefined && content.length) fail("XTSE0620", `${what} has both @select and content`);
  const as = attribute(node, "as");
  if (select === undefined && !content.length) {
    // An empty variable: the empty sequence converted to `as`, else a zero-length string (XSLT 2.0 9.3).
    if (as !== undefined) {
      const convert = conversion(declaration, as, scope.namespaces, "XTTE0570");
      return () => convert(EMPTY, what);
    }
    const value = [""];
    return () => value;
  }
  const value = select !== undefined ? compileXPath(select, scope) : compileConstructor(declaration, content, scope);
  if (as !== undefined) {
    const convert = conversion(declaration, as, scope.namespaces, "XTTE0570");
    return (focus, runtime) => convert(value(focus, runtime), what);
  }
  if (select !== undefined) return value;
  // A temporary tree is built only from text here: literal text and xsl:value-of, never copied nodes.
  for (const instruction of content) {
    if (instruction.kind === Kind.Element && !isXsl(instruction, "value-of")) {
      throw new UnsupportedXslt(declaration, `<${instruction.qname}> inside ${what} (a temporary tree built from more than text)`);
    }
  }
  return (focus, runtime) => [temporaryTree(value(focus, runtime).map((item) => (item as XNode).value).join(""))];
}

function required(node: XNode, name: string): string {
  return attribute(node, name) ?? fail("XTSE0010", `<${node.qname}> needs @${name}`);
}

const EMPTY: Sequence = [];

/** A parentless text node, as `xsl:value-of` and literal text create: its own one-node tree. */
function textNode(value: string): XNode {
  const node = new XNode(Kind.Text, null, "", "", "", value);
  new XDocument(node);
  return node;
}

/** A document node holding one text node (none when the text is empty), as a variable with content builds. */
function temporaryTree(text: string): XNode {
  const root = new XNode(Kind.Document, null, "", "", "", "");
  if (text) root.children.push(new XNode(Kind.Text, root, "", "", "", text));
  new XDocument(root);
  return root;
}

// ---- sequence types -------------------------------------------------------------------------

const NODE_KINDS: Record<string, Kind | null> = {
  "node()": null,
  "element()": Kind.Element,
  "attribute()": Kind.Attribute,
  "text()": Kind.Text,
  "document-node()": Kind.Document,
};

/**
 * The conversion for an `as` attribute (absent: `item()*`, no conversion). Saxon-HE reports any
 * failure converting a variable's value as XTTE0570 and a function's result as XTTE0780 (`code`);
 * a parameter's failure keeps its own code (XPTY0004, or FORG0001 when an untyped value does not cast).
 */
function conversion(declaration: XsltDeclaration, as: string | undefined, namespaces: ReadonlyMap<string, string>, code?: string): Conversion {
  if (as === undefined) return (value) => value;
  const convert = itemConversion(declaration, as, namespaces);
  if (code === undefined) return convert;
  return (value, what) => {
    try {
      return convert(value, what);
    } catch (error) {
      if (error instanceof XPathError && !(error instanceof UnsupportedXslt)) fail(code, error.message.slice(error.code.length + 2));
      throw error;
    }
  };
}

function itemConversion(declaration: XsltDeclaration, as: string, namespaces: ReadonlyMap<string, string>): Conversion {
  const m = /^\s*(.+?)\s*([?*+]?)\s*$/.exec(as);
  if (!m) throw new UnsupportedXslt(declaration, `the sequence type "${as}"`);
  const [, itemType, occurrence] = m;
  const cardinality = (value: Sequence, what: string): void => {
    if (value.length === 0 && (occurrence === "" || occurrence === "+")) fail("XPTY0004", `an empty sequence is not allowed as ${what} (${as})`);
    if (value.length > 1 && (occurrence === "" || occurrence === "?")) fail("XPTY0004", `a sequence of more than one item is not allowed as ${what} (${as})`);
  };
  if (itemType === "item()") return (value, what) => (cardinality(value, what), value);
  if (itemType in NODE_KINDS) {
    const kind = NODE_KINDS[itemType];
    return (value, what) => {
      cardinality(value, what);
      for (const item of value) {
        if (!(item instanceof XNode) || (kind !== null && item.kind !== kind)) fail("XPTY0004", `${what} is not ${itemType}`);
      }
      return value;
    };
  }
  const q = /^([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)$/.exec(itemType);
  if (!q || namespaces.get(q[1]) !== XS_NS) throw new UnsupportedXslt(declaration, `the sequence type "${as}"`);
  const type = `xs:${q[2]}`;
  if (type !== "xs:anyAtomicType" && !CAST_TARGETS.has(type)) throw new UnsupportedXslt(declaration, `the sequence type "${as}"`);
  return (value, what) => {
    const out: Atomic[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = convertAtomic(atomize(value[i]), type, what);
    cardinality(out, what);
    return out;
  };
}

/** Function conversion of one atomized item: untypedAtomic is cast, numerics promoted, anything else must already be of the type. */
function convertAtomic(value: Atomic, type: string, what: string): Atomic {
  if (type === "xs:anyAtomicType") return value;
  if (value instanceof Untyped) return castAtomic(value, type);
  const actual = typeName(value);
  if (actual === type) return value;
  switch (type) {
    case "xs:decimal":
      if (actual === "xs:integer") return value;
      break;
    case "xs:double":
      if (value instanceof Dec) return value.toNumber();
      break;
  }
  return fail("XPTY0004", `required item type of ${what} is ${type}; supplied value has item type ${actual}`);
}
