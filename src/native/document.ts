/**
 * A compact read-only XPath data model of one document, built once per validation. Every node has
 * a document-order number (attributes right after their element, before its children) and an
 * element knows the last number in its subtree, so descendant tests are number ranges and
 * `//name` is a slice of a per-name element list instead of a tree walk.
 */

export const enum Kind {
  Document,
  Element,
  Attribute,
  Text,
  Comment,
  ProcessingInstruction,
}

export class XNode {
  readonly children: XNode[] = [];
  readonly attributes: XNode[] = [];
  order = 0;
  /** The highest order number in this node's subtree (itself when it has none below). */
  end = 0;
  private cachedString: string | undefined;

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
  ) {}

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

  root(): XNode {
    let node: XNode = this;
    while (node.parent) node = node.parent;
    return node;
  }
}

export class XDocument {
  readonly node: XNode;
  /** Elements in document order, all of them and by `{ns}local`. */
  readonly elements: XNode[] = [];
  private readonly byName = new Map<string, XNode[]>();
  private readonly attributesByName = new Map<string, XNode[]>();
  /** Every node in document order, indexed by order number. */
  readonly nodes: XNode[] = [];

  constructor(node: XNode) {
    this.node = node;
    this.number(node);
    TREES.set(node, this);
  }

  /** Elements named `{ns}local` in document order (empty when there are none). */
  named(ns: string, local: string): readonly XNode[] {
    return this.byName.get(nameKey(ns, local)) ?? [];
  }

  /** Attributes named `{ns}local` in document order. */
  attributesNamed(ns: string, local: string): readonly XNode[] {
    return this.attributesByName.get(nameKey(ns, local)) ?? [];
  }

  private number(root: XNode): void {
    // Iterative, so that deeply nested documents cannot overflow the stack.
    const stack: [XNode, number][] = [[root, -1]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [node, next] = top;
      if (next === -1) {
        node.order = this.nodes.length;
        this.nodes.push(node);
        if (node.kind === Kind.Element) {
          this.elements.push(node);
          const key = nameKey(node.ns, node.local);
          const list = this.byName.get(key);
          if (list) list.push(node);
          else this.byName.set(key, [node]);
          for (const attribute of node.attributes) {
            attribute.order = attribute.end = this.nodes.length;
            this.nodes.push(attribute);
            const attributeKey = nameKey(attribute.ns, attribute.local);
            const attributes = this.attributesByName.get(attributeKey);
            if (attributes) attributes.push(attribute);
            else this.attributesByName.set(attributeKey, [attribute]);
          }
        }
        top[1] = 0;
        continue;
      }
      if (next < node.children.length) {
        top[1] = next + 1;
        stack.push([node.children[next], -1]);
        continue;
      }
      node.end = this.nodes.length - 1;
      stack.pop();
    }
  }
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

export function nameKey(ns: string, local: string): string {
  return ns ? `{${ns}}${local}` : local;
}
