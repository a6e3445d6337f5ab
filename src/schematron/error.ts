import type { Origin } from "./model.ts";

/** A defect in a Schematron source, reported with the file, line and element it concerns. */
export class SchematronError extends Error {
  constructor(origin: Origin, element: string, problem: string) {
    super(`${origin.file}:${origin.line}: <${element}>: ${problem}`);
    this.name = "SchematronError";
  }
}
