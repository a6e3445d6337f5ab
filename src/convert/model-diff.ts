// Where two EN 16931 models differ: the check that a written target says what its source said.
// The model keeps decimals as written ("12.50"), and a writer may spell one differently ("12.5"),
// so two decimal strings that differ are compared by value; everything else compares exactly.

import { sameDecimal } from "../model/decimal.ts";

/** One place the models differ: a JSON pointer into the model, and the value on each side. */
export interface ModelDifference {
  path: string;
  before: unknown;
  after: unknown;
}

/** Every leaf where `after` does not say what `before` said, in `before`'s order, then what `after` adds. */
export function modelDifferences(before: unknown, after: unknown, path = ""): ModelDifference[] {
  if (before === after) return [];
  if (typeof before === "string" && typeof after === "string") return sameDecimal(before, after) ? [] : [{ path, before, after }];
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => modelDifferences(before[i], after[i], `${path}/${i}`)).flat();
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => modelDifferences(emptyAsAbsent(before[key]), emptyAsAbsent(after[key]), `${path}/${key}`));
  }
  return [{ path, before, after }];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A reader gives an absent list as `[]` or leaves it out, as its syntax has it: the same nothing. */
const emptyAsAbsent = (value: unknown) => (Array.isArray(value) && value.length === 0 ? undefined : value);
