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
import { BUILT_INS, codepointCount, normalizeSpace, substringAfter, substringBefore } from "./functions.ts";
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
 * The string functions by name, each as its value from the strings of its one or two arguments
 * (concat's joined pairwise); the arities are the built-ins' own.
 */
const STRING_FUNCTIONS: Record<string, (text: string, other: string) => string> = {
  "normalize-space": (text) => normalizeSpace(text),
  string: (text) => text,
  "upper-case": (text) => text.toUpperCase(),
  "lower-case": (text) => text.toLowerCase(),
  "substring-before": substringBefore,
  "substring-after": substringAfter,
  concat: (text, other) => text + other,
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

/** A call of a built-in, by its plain name, if it is one of `table`'s and takes that many arguments. */
function builtInCall<T>(expr: Expr, table: Record<string, T>): { name: string; entry: T; args: Expr[] } | null {
  if (expr.kind !== "call") return null;
  const name = functionName(expr.name);
  if (!Object.hasOwn(table, name) || !Object.hasOwn(BUILT_INS, name)) return null;
  const { min, max } = BUILT_INS[name];
  return expr.args.length < min || expr.args.length > max ? null : { name, entry: table[name], args: expr.args };
}

/** The value of a string function call or a string literal as a string, or null when `expr` is neither. */
export function compileStringScalar(expr: Expr, scope: Scope, compilers: ScalarCompilers): StringScalar | null {
  if (expr.kind === "literal" && typeof expr.value === "string") {
    const value = expr.value;
    return () => value;
  }
  if (expr.kind === "sequence" && expr.items.length === 1) return compileStringScalar(expr.items[0], scope, compilers);
  const call = builtInCall(expr, STRING_FUNCTIONS);
  if (!call || !compilers.evaluatedEachTime(expr, scope)) return null;
  const apply = call.entry;
  // Without an argument, normalize-space and string take the context item.
  const args = call.args.length ? call.args.map((arg) => stringArgument(arg, scope, compilers)) : [contextString];
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
  return builtInCall(expr, STRING_FUNCTIONS) !== null;
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
  if (!call || !compilers.evaluatedEachTime(expr, scope)) return null;
  if (call.name === "count") {
    const counted = compilers.compile(call.args[0], scope);
    return (focus, runtime) => counted(focus, runtime).length;
  }
  const text = call.args.length ? stringArgument(call.args[0], scope, compilers) : contextString;
  return (focus, runtime) => {
    const value = text(focus, runtime);
    return value === undefined ? undefined : codepointCount(value);
  };
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
  if (!call || !compilers.evaluatedEachTime(expr, scope)) return null;
  const test = call.entry;
  const [text, part] = call.args.map((arg) => stringArgument(arg, scope, compilers));
  return (focus, runtime) => {
    const a = text(focus, runtime);
    if (a === undefined) return general(focus, runtime);
    const b = part(focus, runtime);
    return b === undefined ? general(focus, runtime) : test(a, b);
  };
}
