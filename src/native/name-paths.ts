/**
 * Name paths: a number per distinct chain of node kinds and names from the document node down
 * (`/ubl:Invoice/cac:InvoiceLine/cbc:ID`, an attribute's with its element's). Whether a match
 * pattern without predicates matches a node depends on nothing else, so the engine decides which
 * rules can fire on a node once per name path instead of once per node: a 1,000-line invoice has
 * some thirty thousand nodes but a few hundred name paths.
 *
 * The numbers are shared by every document a worker judges. Caller documents choose their names,
 * so the table is bounded: past {@link MAX_PATHS} a new path gets none and is matched rule by rule.
 */
import { Kind, UNNUMBERED, type XDocument, type XNode } from "./xpath/document.ts";

/** The name path of the document node. */
const ROOT = 0;
const MAX_PATHS = 20_000;
/** No name path: the node is matched rule by rule. */
export const NO_PATH = -1;

/** The paths below each path, by the child's name number (see `nameIdOf`), attributes as its negative. */
const below: Map<number, number>[] = [new Map()];

/** The name paths of one document's nodes, by order number, found as they are asked for. */
export class DocumentPaths {
  /** The path plus one; 0 while not yet known. */
  private readonly paths: Int32Array;

  constructor(private readonly document: XDocument) {
    this.paths = new Int32Array(document.nodes.length);
  }

  /**
   * The name path of `node` (the document node, an element or an attribute of the document), or
   * {@link NO_PATH}: for other kinds, a node of another tree, a name left unnumbered, or a full table.
   */
  of(node: XNode): number {
    if (this.document.nodes[node.order] !== node) return NO_PATH;
    const known = this.paths[node.order];
    if (known !== 0) return known - 1;
    let path = NO_PATH;
    if (node.kind === Kind.Document) path = ROOT;
    else if ((node.kind === Kind.Element || node.kind === Kind.Attribute) && node.parent && node.nameId !== UNNUMBERED) {
      const parent = this.of(node.parent);
      if (parent !== NO_PATH) path = child(parent, node.kind === Kind.Attribute ? -node.nameId : node.nameId);
    }
    this.paths[node.order] = path + 1;
    return path;
  }
}

function child(parent: number, name: number): number {
  const found = below[parent].get(name);
  if (found !== undefined) return found;
  if (below.length >= MAX_PATHS) return NO_PATH;
  below.push(new Map());
  below[parent].set(name, below.length - 1);
  return below.length - 1;
}
