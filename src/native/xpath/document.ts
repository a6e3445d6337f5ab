/**
 * A compact read-only XPath data model of one document, built once per validation. Every node has
 * a document-order number (attributes right after their element, before its children) and an
 * element knows the last number in its subtree, so descendant tests are number ranges and
 * `//name` is a slice of a per-name element list instead of a tree walk.
 */
import { Untyped } from "./atomic.ts";

export const enum Kind {
  Document,
  Element,
  Attribute,
  Text,
  Comment,
  ProcessingInstruction,
}

const LEAF: readonly XNode[] = Object.freeze([]);

export class XNode {
  readonly children: XNode[];
  readonly attributes: XNode[];
  order = 0;
  /** The highest order number in this node's subtree (itself when it has none below). */
  end = 0;
  /** Scratch for set membership during one axis computation (see `childrenOfAll` in axes.ts), by a token from {@link XDocument.newMark}. */
  mark = 0;
  /** The expanded name as a number (see {@link nameIdOf}): elements and attributes; 0 for other kinds. */
  nameId = 0;
  // Initialized here, like every field, so that all nodes keep one object shape: the name tests
  // that scan children read nodes of every kind at one call site.
  private cachedString: string | undefined = undefined;
  private cachedTyped: Untyped | undefined = undefined;
  /** Element children by name number (see {@link nameIdOf}), built on the first name lookup of a node with many children. */
  private childIndex: Map<number, XNode[]> | undefined = undefined;
  /** The sequence of this node alone, made once: the answer of most child steps (one `cbc:ID` under its parent). */
  private alone: readonly XNode[] | undefined = undefined;

  constructor(
    readonly kind: Kind,
    readonly parent: XNode | null,
    /** Namespace URI ("" for none); for a processing instruction, unused. */
    readonly ns: string,
    /** Local name (the target of a processing instruction). */
    readonly local: string,
    /** The lexical name as written, `prefix:local`, which `name()` returns. */
    readonly qname: string,
    /** The content of attributes, text, comments and processing instructions. */
    readonly value: string,
    /** An element's attributes, to be filled by the caller; most elements have none and share one empty list. */
    attributes: XNode[] = LEAF as XNode[],
  ) {
    // Most nodes are text or attributes, which never get children: they share one empty list.
    this.children = kind === Kind.Element || kind === Kind.Document ? [] : (LEAF as XNode[]);
    this.attributes = attributes;
  }

  /** The string value: a document's or element's is the concatenated text of its descendants. */
  stringValue(): string {
    if (this.kind !== Kind.Element && this.kind !== Kind.Document) return this.value;
    if (this.cachedString === undefined) {
      const children = this.children;
      if (children.length === 1 && children[0].kind === Kind.Text) this.cachedString = children[0].value;
      else {
        let text = "";
        for (const child of children) if (child.kind === Kind.Text || child.kind === Kind.Element) text += child.stringValue();
        this.cachedString = text;
      }
    }
    return this.cachedString;
  }

  /** The typed value, xs:untypedAtomic as the documents are untyped; one object per node, however often the rules atomize it. */
  typedValue(): Untyped {
    return (this.cachedTyped ??= new Untyped(this.stringValue()));
  }

  /**
   * Element children named `{ns}local` in document order; shared, never to be mutated. An
   * invoice's root has a child per line, so the rules' `../cbc:X` from every line would otherwise
   * scan all lines each time.
   */
  childrenNamed(ns: string, local: string): readonly XNode[] {
    return this.childrenWithName(knownNameId(ns, local), ns, local);
  }

  /** {@link childrenNamed} for a name whose number (see {@link knownNameId}) the caller holds. */
  childrenWithName(id: number, ns: string, local: string): readonly XNode[] {
    if (id === UNNUMBERED) return this.children.filter((child) => child.kind === Kind.Element && child.local === local && child.ns === ns);
    let index = this.childIndex;
    if (!index) {
      index = this.childIndex = new Map();
      for (const child of this.children) {
        if (child.kind !== Kind.Element) continue;
        const list = index.get(child.nameId);
        if (list) list.push(child);
        else index.set(child.nameId, [child]);
      }
    }
    return index.get(id) ?? NO_NODES;
  }

  /** The sequence holding this node alone; shared, never to be mutated. */
  asSequence(): readonly XNode[] {
    return (this.alone ??= [this]);
  }

  root(): XNode {
    let node: XNode = this;
    while (node.parent) node = node.parent;
    return node;
  }
}

const NO_NODES: readonly XNode[] = [];

/** Fewer children than this are scanned: cheaper than building and consulting a {@link XNode.childrenNamed} index. */
export const INDEXED_CHILDREN = 16;

/**
 * The numbering and indexes of a tree, filled in by a reader that creates nodes in document order
 * (order and end numbers set as it goes): the tree then needs no second walk.
 */
export interface NodeIndex {
  nodes: XNode[];
  elements: XNode[];
  byName: Map<string, Map<string, XNode[]>>;
  attributesByName: Map<string, Map<string, XNode[]>>;
}

export class XDocument {
  readonly node: XNode;
  /** Elements in document order, all of them and by `{ns}local`. */
  readonly elements: XNode[];
  /** By namespace, then local name: no key string to build per node. */
  private readonly byName: Map<string, Map<string, XNode[]>>;
  private readonly attributesByName: Map<string, Map<string, XNode[]>>;
  /** Every node in document order, indexed by order number. */
  readonly nodes: XNode[];
  /** The last token {@link newMark} handed out. */
  private marks = 0;
  /** {@link namedInAnyNamespace}'s lists, built on first use. */
  private anyNamespace: Map<string, readonly XNode[]> | undefined;
  /** Per name number, whether some element or attribute carries it; built on the first {@link lacksAnyName}. */
  private carried: Uint8Array | undefined;

  constructor(node: XNode, built?: NodeIndex) {
    this.node = node;
    this.nodes = built?.nodes ?? [];
    this.elements = built?.elements ?? [];
    this.byName = built?.byName ?? new Map();
    this.attributesByName = built?.attributesByName ?? new Map();
    if (!built) this.number(node);
    TREES.set(node, this);
  }

  /** Elements named `{ns}local` in document order (empty when there are none). */
  named(ns: string, local: string): readonly XNode[] {
    return this.byName.get(ns)?.get(local) ?? NO_NODES;
  }

  /** Elements of local name `local` in any namespace, in document order; kept per name asked (the rules' literals). */
  namedInAnyNamespace(local: string): readonly XNode[] {
    let cached = (this.anyNamespace ??= new Map()).get(local);
    if (!cached) {
      const lists: XNode[][] = [];
      for (const locals of this.byName.values()) {
        const list = locals.get(local);
        if (list?.length) lists.push(list);
      }
      cached = lists.length === 0 ? NO_NODES : lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a.order - b.order);
      this.anyNamespace.set(local, cached);
    }
    return cached;
  }

  /** Attributes named `{ns}local` in document order. */
  attributesNamed(ns: string, local: string): readonly XNode[] {
    return this.attributesByName.get(ns)?.get(local) ?? NO_NODES;
  }

  /**
   * Whether no element or attribute of this tree carries one of the names numbered `ids` (see
   * {@link nameIdOf}). A name numbered after the tree was read is carried by none of its nodes: they
   * were numbered as they were read, or left {@link UNNUMBERED} by a full table that stays full.
   */
  lacksAnyName(ids: readonly number[]): boolean {
    let carried = this.carried;
    if (!carried) {
      carried = this.carried = new Uint8Array(lastNameId + 1);
      for (const node of this.nodes) if (node.nameId > 0) carried[node.nameId] = 1;
    }
    for (let i = 0; i < ids.length; i++) if (carried[ids[i]] !== 1) return true;
    return false;
  }

  /**
   * A {@link XNode.mark} no node of this tree carries yet: only this tree's tokens mark its nodes,
   * so the count is the tree's and not the process's.
   */
  newMark(): number {
    return ++this.marks;
  }

  private number(root: XNode): void {
    // Iterative, so that deeply nested documents cannot overflow the stack: the open nodes and the next child of each.
    const open: XNode[] = [root];
    const next: number[] = [-1];
    const nodes = this.nodes;
    while (open.length) {
      const top = open.length - 1;
      const node = open[top];
      const at = next[top];
      if (at === -1) {
        node.order = nodes.length;
        nodes.push(node);
        if (node.kind === Kind.Element) {
          this.elements.push(node);
          index(this.byName, node);
          for (const attribute of node.attributes) {
            attribute.order = attribute.end = nodes.length;
            nodes.push(attribute);
            index(this.attributesByName, attribute);
          }
        }
        next[top] = 0;
        continue;
      }
      if (at < node.children.length) {
        next[top] = at + 1;
        open.push(node.children[at]);
        next.push(-1);
        continue;
      }
      node.end = nodes.length - 1;
      open.pop();
      next.pop();
    }
  }
}

function index(byName: Map<string, Map<string, XNode[]>>, node: XNode): void {
  namedList(byName, node.ns, node.local).push(node);
}

/** The list of nodes named `{ns}local` in an index, created empty on first use. */
export function namedList(byName: Map<string, Map<string, XNode[]>>, ns: string, local: string): XNode[] {
  let locals = byName.get(ns);
  if (!locals) byName.set(ns, (locals = new Map()));
  let list = locals.get(local);
  if (!list) locals.set(local, (list = []));
  return list;
}

/** Every tree's index by its root: the source document and the temporary trees XSLT functions build. */
const TREES = new WeakMap<XNode, XDocument>();

/**
 * The indexed tree `node` belongs to: `document` itself on the hot path (one array read), else the
 * temporary tree (an `xsl:variable` with content, an `xsl:value-of` text node) that holds it.
 */
export function treeOf(node: XNode, document: XDocument): XDocument {
  return document.nodes[node.order] === node ? document : (TREES.get(node.root()) ?? document);
}

/** Numbers of expanded names: comparing two is one integer test, where two name strings compare by content. */
const nameIds = new Map<string, Map<string, number>>();
let lastNameId = 0;
/**
 * The most names numbered per worker: caller documents choose their names, so the table is bounded.
 * Past it a new name gets {@link UNNUMBERED}, which no name test carries: a test whose own name found
 * the table full compares the strings instead (see `compileTest` in axes.ts).
 */
const MAX_NAME_IDS = 50_000;
export const UNNUMBERED = -1;

/**
 * The number of `{ns}local` without numbering it: {@link NO_SUCH_NAME} when no node read so far
 * carries the name, {@link UNNUMBERED} when the table is full (nodes so named may exist unnumbered).
 */
export function knownNameId(ns: string, local: string): number {
  return nameIds.get(ns)?.get(local) ?? (lastNameId >= MAX_NAME_IDS ? UNNUMBERED : NO_SUCH_NAME);
}

/** No node carries the name: the number of none (text and other nameless nodes have it too, but are never looked up by name). */
export const NO_SUCH_NAME = 0;

/** The number of the expanded name `{ns}local`, the same for every document a worker reads. */
export function nameIdOf(ns: string, local: string): number {
  let locals = nameIds.get(ns);
  const known = locals?.get(local);
  if (known !== undefined) return known;
  if (lastNameId >= MAX_NAME_IDS) return UNNUMBERED;
  if (!locals) nameIds.set(ns, (locals = new Map()));
  locals.set(local, ++lastNameId);
  return lastNameId;
}

export function nameKey(ns: string, local: string): string {
  return ns ? `{${ns}}${local}` : local;
}
