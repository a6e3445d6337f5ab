/**
 * Items and sequences, and the operations every part of the evaluator shares: atomization,
 * effective boolean value, comparisons and arithmetic with XPath 2.0's promotion rules for
 * untyped (node) values.
 */
import { XNode } from "./document.ts";
import {
  isNumeric,
  stringOf,
  toBoolean,
  toDate,
  toDouble,
  typeName,
  Untyped,
  XDate,
  type Atomic,
} from "./atomic.ts";
import { Dec } from "./decimal.ts";
import { fail } from "./errors.ts";

export type Item = XNode | Atomic;
export type Sequence = Item[];

export function atomize(item: Item): Atomic {
  return item instanceof XNode ? item.typedValue() : item;
}

/** The string value of an item: a node's string value or the atomic value cast to xs:string. */
export function itemString(item: Item): string {
  return item instanceof XNode ? item.stringValue() : stringOf(item);
}

/**
 * At most one atomic value; more is XPTY0004 (e.g. two nodes passed to `normalize-space`). The
 * error names the operand as `what`, `name` and `after` joined, and only then: this runs for nearly
 * every comparison and function call, where building the text each time costs more than the test.
 */
export function singleAtomic(sequence: Sequence, what: string, name = "", after = ""): Atomic | null {
  if (sequence.length === 0) return null;
  if (sequence.length > 1) fail("XPTY0004", `a sequence of more than one item is not allowed as ${what}${name}${after}`);
  return atomize(sequence[0]);
}

export function effectiveBoolean(sequence: Sequence): boolean {
  if (sequence.length === 0) return false;
  const first = sequence[0];
  if (first instanceof XNode) return true;
  if (sequence.length > 1) fail("FORG0006", "effective boolean value is not defined for a sequence of two or more atomic values");
  if (typeof first === "boolean") return first;
  if (typeof first === "string") return first.length > 0;
  if (first instanceof Untyped) return first.value.length > 0;
  if (typeof first === "number") return !(first === 0 || Number.isNaN(first));
  if (first instanceof Dec) return !first.isZero();
  return fail("FORG0006", `effective boolean value is not defined for ${typeName(first)}`);
}

export type ComparisonOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

export const VALUE_TO_GENERAL: Record<string, ComparisonOp> = { eq: "=", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=" };

/** General comparison of two atomic values: untyped takes the other operand's type (double for numbers). */
export function generalCompare(a: Atomic, b: Atomic, op: ComparisonOp): boolean {
  if (a instanceof Untyped) {
    if (b instanceof Untyped || typeof b === "string") return compareStrings(a.value, stringOf(b), op);
    a = isNumeric(b) ? toDouble(a) : castLike(a, b);
  } else if (b instanceof Untyped) {
    if (typeof a === "string") return compareStrings(a, b.value, op);
    b = isNumeric(a) ? toDouble(b) : castLike(b, a);
  }
  return valueCompare(a, b, op);
}

function castLike(value: Untyped, like: Atomic): Atomic {
  if (typeof like === "boolean") return toBoolean(value);
  if (like instanceof XDate) return toDate(value);
  return value.value;
}

/** Value comparison (`eq`, ...) of two typed atomic values; untyped compares as a string. */
export function valueCompare(a: Atomic, b: Atomic, op: ComparisonOp): boolean {
  if (a instanceof Untyped) a = a.value;
  if (b instanceof Untyped) b = b.value;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b, op);
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === "number" || typeof b === "number") return compareNumbers(toDouble(a), toDouble(b), op);
    return test(a.compare(b), op);
  }
  if (typeof a === "boolean" && typeof b === "boolean") return test(Number(a) - Number(b), op);
  if (a instanceof XDate && b instanceof XDate) return test(a.instant() - b.instant(), op);
  return fail("XPTY0004", `cannot compare ${typeName(a)} to ${typeName(b)}`);
}

function compareNumbers(a: number, b: number, op: ComparisonOp): boolean {
  switch (op) {
    case "=":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return a < b;
    case "<=":
      return a <= b;
    case ">":
      return a > b;
    case ">=":
      return a >= b;
  }
}

/** Unicode codepoint collation: compare by code points, not UTF-16 units. */
function compareStrings(a: string, b: string, op: ComparisonOp): boolean {
  if (op === "=") return a === b;
  if (op === "!=") return a !== b;
  return test(codepointCompare(a, b), op);
}

function codepointCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function test(order: number, op: ComparisonOp): boolean {
  switch (op) {
    case "=":
      return order === 0;
    case "!=":
      return order !== 0;
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
  }
}

/** An arithmetic operand: untyped becomes xs:double, anything but a number is XPTY0004. */
export function numericOperand(value: Atomic, op: string): number | Dec {
  if (value instanceof Untyped) return toDouble(value);
  if (isNumeric(value)) return value;
  return fail("XPTY0004", `arithmetic operator ${op} is not defined for ${typeName(value)}`);
}

export function arithmetic(op: string, left: number | Dec, right: number | Dec): number | Dec {
  if (typeof left === "number" || typeof right === "number") {
    const a = typeof left === "number" ? left : left.toNumber();
    const b = typeof right === "number" ? right : right.toNumber();
    switch (op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "div":
        return a / b;
      case "mod":
        return a % b;
      case "idiv": {
        if (b === 0) fail("FOAR0001", "integer division by zero");
        const quotient = a / b;
        if (!Number.isFinite(quotient)) fail("FOAR0002", "integer division overflow");
        return Dec.fromDouble(quotient, true);
      }
    }
  } else {
    switch (op) {
      case "+":
        return left.add(right);
      case "-":
        return left.sub(right);
      case "*":
        return left.mul(right);
      case "div":
        return left.div(right);
      case "mod":
        return left.mod(right);
      case "idiv":
        return left.idiv(right);
    }
  }
  return fail("XPST0003", `unknown operator ${op}`);
}
