import type { XDocument } from "../native/xpath/document";
import { compileXPath } from "../native/xpath/compile";
import { Scope, type Evaluate } from "../native/xpath/context";
import { CompileSession } from "../native/xpath/session";
import { itemString } from "../native/xpath/values";
import type { En16931Syntax } from "../profiles/ids";
import { bindingOf } from "../syntax/registry";
import type { DocumentFacts } from "../syntax/binding";

/** Read from the tree the native rule engine judges, so the document is parsed once. */
type Readers = [keyof DocumentFacts, Evaluate][];
const readers: Partial<Record<En16931Syntax, Readers>> = {};

function readersOf(format: En16931Syntax): Readers {
  return (readers[format] ??= (Object.entries(bindingOf(format).facts) as [keyof DocumentFacts, string][]).map(([name, xpath]) => [
    name,
    compileXPath(`normalize-space(string((${xpath})[1]))`, new Scope(new CompileSession(), new Map(), new Map())),
  ]));
}

export function readFacts(document: XDocument, format: En16931Syntax): DocumentFacts {
  const facts: DocumentFacts = {};
  // A fresh frame per document: the evaluator caches context-free values per run frame.
  const runtime = { document, globals: [], locals: [] };
  for (const [name, read] of readersOf(format)) {
    const value = read({ item: document.node, position: 1, size: 1 }, runtime).map(itemString).join("");
    if (value) facts[name] = value;
  }
  return facts;
}
