/**
 * Calls of the built-in string functions (normalize-space, substring-after, upper-case...), of
 * string-length and of count, evaluated as a JavaScript string or number instead of a sequence holding one, and
 * the tests the rule files build from them: `normalize-space(cbc:ID) = 'S'`,
 * `string-length(substring-after(., '.')) <= 2`, `not(contains(normalize-space(@unitCode), ' '))`,
 * `count(cac:Item/cbc:Description) <= 1`.
 * The CEN rules ask these of every amount, code and tax category of every line, and the general
 * evaluation built a list for each argument and each result on the way.
 *
 * A scalar answers undefined where it cannot answer as one (an argument of several items, an item
 * other than a node or a string, no context item), and the test then evaluates the whole
 * expression in the general way, which gives its value or raises the error the rules meet there.
 * Evaluating has no side effects, and a scalar evaluates what it reads in the order the general
 * evaluation does, so an error raised on the way is the one that evaluation raises first.
 */
import { functionName, type Expr } from "./ast.ts";
import { XNode } from "./document.ts";
import type { Evaluate, Focus, Runtime, Scope } from "./context.ts";
import { BUILT_INS, normalizeSpace } from "./functions.ts";
import type { Item } from "./values.ts";

export type StringScalar = (focus: Focus, runtime: Runtime) => string | undefined;
type NumberScalar = (focus: Focus, runtime: Runtime) => number | undefined;
type Test = (focus: Focus, runtime: Runtime) => boolean;

export interface ScalarCompilers {
  compile(expr: Expr, scope: Scope): Evaluate;
  /** Whether `compile` evaluates the expression each time (not once per document or per node): only then may a scalar stand in for it. */
  evaluatedEachTime(expr: Expr, scope: Scope): boolean;
}

/**
 * The string functions by name: how many arguments each takes here, and its value from their
 * strings (`apply` for one or two, `join` for concat's any number).
 */
const STRING_FUNCTIONS: Record<string, { arities: number[]; apply: (text: string, other: string) => string }> = {
  "normalize-space": { arities: [0, 1], apply: (text) => normalizeSpace(text) },
  string: { arities: [0, 1], apply: (text) => text },
  "upper-case": { arities: [1], apply: (text) => text.toUpperCase() },
  "lower-case": { arities: [1], apply: (text) => text.toLowerCase() },
  "substring-before": { arities: [2], apply: (text, search) => {
    const index = text.indexOf(search);
    return index < 0 ? "" : text.slice(0, index);
  } },
  "substring-after": { arities: [2], apply: (text, search) => {
    const index = text.indexOf(search);
    return index < 0 ? "" : text.slice(index + search.length);
  } },
  concat: { arities: [2, 3, 4, 5, 6, 7, 8], apply: (text, other) => text + other },
};

/** The tests between two strings, as `contains`, `starts-with` and `ends-with` answer them. */
export const STRING_TESTS: Record<string, (text: string, part: string) => boolean> = {
  contains: (text, part) => text.includes(part),
  "starts-with": (text, part) => text.startsWith(part),
  "ends-with": (text, part) => text.endsWith(part),
};

/** A string or a node as the string a string parameter takes; undefined for anything else. */
function stringOfItem(item: Item | undefined): string | undefined {
  return item instanceof XNode ? item.stringValue() : typeof item === "string" ? item : undefined;
}

const contextString: StringScalar = (focus) => stringOfItem(focus.item);

/** A call of a built-in, by its plain name, if it is one of `table`'s with an arity it takes. */
function builtInCall<T>(expr: Expr, table: Record<string, T>): { name: string; entry: T; args: Expr[] } | null {
  if (expr.kind !== "call") return null;
  const name = functionName(expr.name);
  if (!Object.hasOwn(table, name) || !Object.hasOwn(BUILT_INS, name)) return null;
  return { name, entry: table[name], args: expr.args };
}

/** The value of a string function call or a string literal as a string, or null when `expr` is neither. */
export function compileStringScalar(expr: Expr, scope: Scope, compilers: ScalarCompilers): StringScalar | null {
  if (expr.kind === "literal" && typeof expr.value === "string") {
    const value = expr.value;
    return () => value;
  }
  if (expr.kind === "sequence" && expr.items.length === 1) return compileStringScalar(expr.items[0], scope, compilers);
  const call = builtInCall(expr, STRING_FUNCTIONS);
  if (!call || !call.entry.arities.includes(call.args.length) || !compilers.evaluatedEachTime(expr, scope)) return null;
  const { apply } = call.entry;
  if (call.args.length === 0) {
    return (focus) => {
      const text = stringOfItem(focus.item);
      return text === undefined ? undefined : apply(text, "");
    };
  }
  const args = call.args.map((arg) => stringArgument(arg, scope, compilers));
  if (args.length === 1) {
    const [only] = args;
    return (focus, runtime) => {
      const text = only(focus, runtime);
      return text === undefined ? undefined : apply(text, "");
    };
  }
  // Two arguments, or concat's: each evaluated in turn, and concat's joined as they come.
  return (focus, runtime) => {
    let text = args[0](focus, runtime);
    if (text === undefined) return undefined;
    for (let i = 1; i < args.length; i++) {
      const other = args[i](focus, runtime);
      if (other === undefined) return undefined;
      text = apply(text, other);
    }
    return text;
  };
}

/** Whether `expr` is a string literal or a call {@link compileStringScalar} may take, by its form alone. */
function stringShaped(expr: Expr): boolean {
  if (expr.kind === "sequence" && expr.items.length === 1) return stringShaped(expr.items[0]);
  if (expr.kind === "literal") return typeof expr.value === "string";
  const call = builtInCall(expr, STRING_FUNCTIONS);
  return call !== null && call.entry.arities.includes(call.args.length);
}

/** An argument of a string parameter: empty is "", one node or string its string; anything else undefined. */
export function stringArgument(arg: Expr, scope: Scope, compilers: ScalarCompilers): StringScalar {
  const scalar = compileStringScalar(arg, scope, compilers);
  if (scalar) return scalar;
  if (arg.kind === "context") return contextString;
  const evaluate = compilers.compile(arg, scope);
  return (focus, runtime) => {
    const items = evaluate(focus, runtime);
    return items.length === 0 ? "" : items.length === 1 ? stringOfItem(items[0]) : undefined;
  };
}

/**
 * `string-length(...)` as a number of code points, or `count(...)` as a number of items; null when
 * `expr` is neither call.
 */
function compileCountScalar(expr: Expr, scope: Scope, compilers: ScalarCompilers): NumberScalar | null {
  const call = builtInCall(expr, { "string-length": true, count: true });
  if (!call || call.args.length > 1 || !compilers.evaluatedEachTime(expr, scope)) return null;
  if (call.name === "count") {
    if (call.args.length !== 1) return null;
    const counted = compilers.compile(call.args[0], scope);
    return (focus, runtime) => counted(focus, runtime).length;
  }
  const text = call.args.length ? stringArgument(call.args[0], scope, compilers) : contextString;
  return (focus, runtime) => {
    const value = text(focus, runtime);
    return value === undefined ? undefined : codepointCount(value);
  };
}

function codepointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** An integer literal small enough to compare exactly as a double; null otherwise. */
function smallInteger(expr: Expr): number | null {
  if (expr.kind !== "literal" || typeof expr.value !== "object" || !("integer" in expr.value)) return null;
  const value = Number(expr.value.integer);
  return Number.isSafeInteger(value) ? value : null;
}

const NUMBER_COMPARISONS: Record<string, (a: number, b: number) => boolean> = {
  "=": (a, b) => a === b,
  "!=": (a, b) => a !== b,
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

/**
 * A test on string function values, or null when `expr` is none: a general comparison of two
 * strings for (in)equality or of a string length or a count with an integer, or `contains`,
 * `starts-with`, `ends-with` of two strings. `general` is the test evaluated in the general way.
 */
export function compileScalarTest(expr: Expr, scope: Scope, compilers: ScalarCompilers, general: Test): Test | null {
  if (expr.kind === "binary") {
    const { op } = expr;
    // Two literals are left to the general evaluation, which does it once.
    if ((op === "=" || op === "!=") && stringShaped(expr.left) && stringShaped(expr.right) && (expr.left.kind !== "literal" || expr.right.kind !== "literal")) {
      const left = compileStringScalar(expr.left, scope, compilers);
      const right = left && compileStringScalar(expr.right, scope, compilers);
      if (!left || !right) return null;
      const equal = op === "=";
      return (focus, runtime) => {
        const a = left(focus, runtime);
        if (a === undefined) return general(focus, runtime);
        const b = right(focus, runtime);
        if (b === undefined) return general(focus, runtime);
        return (a === b) === equal;
      };
    }
    const compare = NUMBER_COMPARISONS[op];
    if (!compare) return null;
    const onRight = smallInteger(expr.right);
    const onLeft = onRight === null ? smallInteger(expr.left) : null;
    const counted = onRight !== null ? compileCountScalar(expr.left, scope, compilers) : onLeft !== null ? compileCountScalar(expr.right, scope, compilers) : null;
    if (!counted) return null;
    return onRight !== null
      ? (focus, runtime) => {
          const value = counted(focus, runtime);
          return value === undefined ? general(focus, runtime) : compare(value, onRight);
        }
      : (focus, runtime) => {
          const value = counted(focus, runtime);
          return value === undefined ? general(focus, runtime) : compare(onLeft!, value);
        };
  }
  const call = builtInCall(expr, STRING_TESTS);
  if (!call || call.args.length !== 2 || !compilers.evaluatedEachTime(expr, scope)) return null;
  const test = call.entry;
  const [text, part] = call.args.map((arg) => stringArgument(arg, scope, compilers));
  return (focus, runtime) => {
    const a = text(focus, runtime);
    if (a === undefined) return general(focus, runtime);
    const b = part(focus, runtime);
    return b === undefined ? general(focus, runtime) : test(a, b);
  };
}
