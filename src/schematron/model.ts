/**
 * The typed model of an ISO Schematron schema (queryBinding xslt2) after the front end has done
 * everything that is pure text and structure: includes are resolved, abstract patterns are
 * instantiated with their parameters, abstract rules are inlined where `sch:extends` names them.
 *
 * What remains is exactly what a rule engine has to evaluate, so the same model feeds the XSLT
 * emitter (`emit-xslt.ts`) and, later, a native engine. Every XPath is kept as the text the
 * schema author wrote (after parameter substitution); nothing here interprets XPath.
 *
 * Phases are not modelled: the front end keeps only the patterns a layer selects (see parse.ts).
 */

/** Where a model element came from, for error messages and for tracing a finding to its source. */
export interface Origin {
  /** Absolute path of the `.sch` file that holds the element. */
  file: string;
  /** 1-based line of the element's start tag (0 when the parser gave none). */
  line: number;
}

/** A prefix binding declared with `sch:ns`; these are the prefixes XPath expressions may use. */
export interface Namespace {
  prefix: string;
  uri: string;
  origin: Origin;
}

/**
 * `sch:let`: a variable. At schema and pattern level it is global (evaluated once, with the document
 * node as context, as the ISO skeleton does); at rule level it is evaluated per context node, in
 * order with the checks of the rule.
 */
export interface Let {
  kind: "let";
  name: string;
  /** The XPath of `@value`. Absent when the value is given as element content instead. */
  value?: string;
  /** The element content (XSLT sequence constructor, serialized with its in-scope namespaces) when there is no `@value`. */
  content?: string;
  origin: Origin;
}

/** One piece of an assertion message, in document order. */
export type MessagePart =
  | { kind: "text"; text: string }
  /** `sch:value-of select`: the string value of the XPath, items joined by a space. */
  | { kind: "value-of"; select: string }
  /** `sch:name`: the name of the context node, or of the node selected by `path`. */
  | { kind: "name"; path?: string }
  /** `sch:emph`, `sch:dir`, `sch:span`: plain text that SVRL renders padded by a space on both sides. */
  | { kind: "inline"; text: string };

/** `sch:assert` (finding when the test is false) or `sch:report` (finding when the test is true). */
export interface Check {
  kind: "assert" | "report";
  id?: string;
  test: string;
  flag?: string;
  role?: string;
  /** XPath relative to the rule context naming the node the finding is about (defaults to the context). */
  subject?: string;
  message: MessagePart[];
  origin: Origin;
}

/** What a rule evaluates, in document order: rule-level lets interleave with the checks that use them. */
export type RuleItem = Let | Check;

/**
 * `sch:rule`. Within one pattern a node is judged by the first rule, in this array's order, whose
 * context matches it; later rules of the same pattern never see that node.
 */
export interface Rule {
  id?: string;
  /** An XSLT match pattern (XPath subset). */
  context: string;
  flag?: string;
  role?: string;
  subject?: string;
  items: RuleItem[];
  /**
   * False when the pattern's traversal stops at a node this rule fires on, so the pattern never
   * visits that node's attributes and descendants: published skeleton XSLT whose rule template does
   * not apply templates onwards. Absent: the traversal continues, as our emitter writes it.
   */
  descends?: boolean;
  origin: Origin;
}

/** A concrete pattern (abstract ones are instantiated, never kept). */
export interface Pattern {
  id?: string;
  title?: string;
  /** The abstract pattern this one instantiates, when it was written with `is-a`. */
  isA?: string;
  /** Pattern-level lets: global variables, like schema-level ones. */
  lets: Let[];
  rules: Rule[];
  origin: Origin;
}

/** An XSLT top-level declaration (`xsl:function`, `xsl:key`) copied verbatim into the compiled stylesheet. */
export interface XsltDeclaration {
  kind: "function" | "key";
  name: string;
  /** The element serialized as XML, carrying every namespace binding in scope where it was written. */
  xml: string;
  origin: Origin;
}

export interface Schema {
  /** Absolute path of the root `.sch` file. */
  file: string;
  title?: string;
  schemaVersion?: string;
  queryBinding: "xslt2";
  namespaces: Namespace[];
  /** Schema-level lets (XSLT global parameters in the compiled form). */
  lets: Let[];
  xslt: XsltDeclaration[];
  /** In document order, which is also the order of `svrl:active-pattern` in the output. */
  patterns: Pattern[];
  /**
   * How the stylesheet this model stands for writes a finding's `location`: the ISO skeleton's
   * `/*:Invoice[namespace-uri()='…'][1]` form (default; also what our emitter writes) or SchXslt's.
   * Set by the native engine's readers of published XSLT, never by the `.sch` front end.
   * `skeleton-prefixed` is the skeleton build whose `schematron-select-full-path` goes through
   * `schematron-get-full-path-3` (`/ubl:Invoice/cac:X[1]`), as in XRechnung 2.4.0.
   */
  locations?: "skeleton" | "skeleton-prefixed" | "schxslt";
  /**
   * Whether each pattern's traversal visits attributes (`apply-templates select="@*|*"`, the
   * default and what our emitter writes) or elements only (`select="*"`, as some skeleton builds
   * write): then no rule ever fires on an attribute. Set by the readers of published XSLT.
   */
  visitsAttributes?: boolean;
}
