import type SaxonJsModule from "saxon-js";
import type { Bundle } from "../assets/bundle-format";
import { bundledEntry } from "../assets/bundled-entries";
import { FindingCaps } from "./finding-caps";
import { parseSvrl } from "./svrl";
import { RuleFileStopped, type Finding } from "../schematron/finding";

/** Where a compiled stylesheet believes it lives, so relative document() calls resolve into the pool. */
const BASE = "file:///einvoice-rulesets/";

let loadedSaxonJs: typeof SaxonJsModule | undefined;

/**
 * SaxonJS costs about 50 MiB per worker once loaded, and most documents never need it (the native
 * engine runs every rule file it has a plan for), so it loads on the first rule file that does.
 */
function saxonJs(): typeof SaxonJsModule {
  if (!loadedSaxonJs) {
    require("./saxon-globals");
    loadedSaxonJs = require("saxon-js") as typeof SaxonJsModule;
  }
  return loadedSaxonJs;
}

interface Loaded {
  sef: unknown;
  pool: Record<string, unknown>;
  baseUri: string;
}

/**
 * Runs the compiled authority stylesheets on SaxonJS. Each SEF is inflated and parsed once per
 * process; the code lists it opens with document() are served from memory, never from disk or
 * the network.
 */
export class SaxonJsSchematron {
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly bundle: Bundle) {}

  /**
   * Whether the bundle holds the entry's compiled stylesheet. The default build compiles one only for
   * the rule files the native engine has no plan for (docs/architecture.md, "Build pipeline for rules").
   */
  has(entryId: string): boolean {
    return bundledEntry(this.bundle, entryId).sef !== null;
  }

  /** Loads a stylesheet ahead of the first document. */
  warm(entryId: string): void {
    this.load(entryId);
  }

  /** The findings up to the verdict's caps, then the count of the rest (see {@link Finding.omitted}). */
  run(entryId: string, xml: string): Finding[] {
    const { sef, pool, baseUri } = this.load(entryId);
    let result: { principalResult: string };
    try {
      result = saxonJs().transform(
        { stylesheetInternal: sef, stylesheetBaseURI: baseUri, documentPool: pool, sourceText: xml, destination: "serialized" },
        "sync",
      ) as { principalResult: string };
    } catch (error) {
      const e = error as { code?: string; message?: string };
      throw new RuleFileStopped(entryId, `${e.code ?? "error"}: ${e.message ?? String(error)}`);
    }
    return parseSvrl(result.principalResult, new FindingCaps());
  }

  private load(entryId: string): Loaded {
    const cached = this.loaded.get(entryId);
    if (cached) return cached;
    const entry = bundledEntry(this.bundle, entryId);
    // Not a verdict: the layer cannot run here, so the request fails as the engine's fault (503).
    if (!entry.sef) {
      throw new Error(`SaxonJS cannot run ${entryId}: the ruleset bundle has no compiled stylesheet for it; build them with \`bun scripts/rulesets.ts all --sef all\` (or start with VALIDATION_ENGINE=saxonjs)`);
    }
    const pool: Record<string, unknown> = {};
    for (const list of entry.codeLists) {
      pool[BASE + list] = saxonJs().XPath.evaluate("parse-xml($text)", null, { params: { text: this.bundle.text(`files/${list}`) } });
    }
    const loaded = { sef: JSON.parse(this.bundle.text(entry.sef.path)), pool, baseUri: BASE + entry.path };
    this.loaded.set(entryId, loaded);
    return loaded;
  }
}
