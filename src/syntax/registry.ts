// Every EN 16931 syntax and its binding. Adding a syntax is a folder with its binding, a row here
// (the type asks for one per EN16931_SYNTAXES entry) and the catalogue's records for its profiles.

import type { En16931Syntax } from "../profiles/ids.ts";
import type { SyntaxBinding } from "./binding.ts";
import { CII } from "./cii/binding.ts";
import { UBL } from "./ubl/binding.ts";

const BINDINGS: Record<En16931Syntax, SyntaxBinding> = { cii: CII, ubl: UBL };

export const bindingOf = (syntax: En16931Syntax): SyntaxBinding => BINDINGS[syntax];
