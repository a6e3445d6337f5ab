// Unit tests of the build-time rewrites, then the proof that matters: on Saxon-HE (the reference
// engine) every rewritten stylesheet gives exactly the findings of the pinned original over
// corpus documents that use it. FULL=1 runs every matching document instead of a sample.

import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { documentTargets, readIndex } from "../../src/rulesets/compile";
import { buildDir } from "../../src/rulesets/sync";
import { type Pin, pins } from "../../src/rulesets/pins";
import { rewriteStylesheet } from "../../src/rulesets/rewrites";
import { parseSvrl } from "../../src/validation/svrl";
import type { Finding } from "../../src/schematron/finding";
import { corpusMissing, mirrorMissing } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he";
import { embeddedCii } from "./pdf-xml";

const XSL_NS = `xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema"`;
const sheet = (body: string) => `<xsl:stylesheet version="2.0" ${XSL_NS}>${body}</xsl:stylesheet>`;

describe("round(sum()) rewrite", () => {
  test("wraps sum() in xs:decimal, matching its own closing parenthesis", () => {
    const { text, counts } = rewriteStylesheet(sheet(`<xsl:if test="round(sum(a/(b*c)) * 10 * 10) div 100 = 1"/>`));
    expect(text).toBe(sheet(`<xsl:if test="round(xs:decimal(sum(a/(b*c))) * 10 * 10) div 100 = 1"/>`));
    expect(counts["round-sum-decimal"]).toBe(1);
  });

  test("ignores parentheses inside string literals, escaped quotes and comments", () => {
    const src = sheet(
      `<xsl:variable name="v" select="round(sum(x[@a = ')'][@b = &quot;(&quot;] (: ) :) [@c = 'it''s)'])) &gt; 0"/>`,
    );
    expect(rewriteStylesheet(src).text).toBe(
      sheet(`<xsl:variable name="v" select="round(xs:decimal(sum(x[@a = ')'][@b = &quot;(&quot;] (: ) :) [@c = 'it''s)']))) &gt; 0"/>`),
    );
  });

  test("rewrites nested and repeated sites, keeping every other byte", () => {
    const src = sheet(`\n  <xsl:if\n     test="round(sum(round(sum(a)))) =  round(sum(b))"  >x</xsl:if>`);
    const { text, counts } = rewriteStylesheet(src);
    expect(text).toBe(
      sheet(`\n  <xsl:if\n     test="round(xs:decimal(sum(round(xs:decimal(sum(a)))))) =  round(xs:decimal(sum(b)))"  >x</xsl:if>`),
    );
    expect(counts["round-sum-decimal"]).toBe(3);
  });

  test("leaves text, comments, non-XPath attributes and non-XSLT elements alone", () => {
    const src = sheet(
      `<!-- round(sum(a)) --><xsl:attribute name="test">round(sum(a))</xsl:attribute>` +
        `<svrl:failed-assert xmlns:svrl="http://purl.oclc.org/dsdl/svrl" test="round(sum(a))"/>` +
        `<xsl:message terminate="round(sum(a))"/><xsl:if test="myround(sum(a)) or 'round(sum(a))'"/>` +
        // A prefix named xsl that is not bound to XSLT is not an XSLT element.
        `<xsl:x xmlns:xsl="urn:other" test="round(sum(a))"/>`,
    );
    expect(rewriteStylesheet(src)).toEqual({ text: src, counts: { "round-sum-decimal": 0, "integer-mod97-decimal": 0 } });
  });

  test("follows the XSLT namespace under any prefix", () => {
    const src = `<t:stylesheet version="2.0" xmlns:t="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema"><t:value-of select='round(sum(a))'/></t:stylesheet>`;
    expect(rewriteStylesheet(src).text).toContain(`select='round(xs:decimal(sum(a)))'`);
  });

  test("refuses to rewrite where xs is not bound to XML Schema", () => {
    const src = `<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:if test="round(sum(a))"/></xsl:stylesheet>`;
    expect(() => rewriteStylesheet(src, "s.xsl")).toThrow("s.xsl: rewrite round-sum-decimal needs prefix xs bound");
  });
});

describe("xs:integer mod 97 rewrite", () => {
  test("turns the BR-DE-19 IBAN check into xs:decimal", () => {
    const iban = `xs:integer(string-join(for $cp in string-to-codepoints(replace(x, '([ \\n])', '')) return (if($cp &gt; 64) then string($cp - 55) else string($cp - 48)),''))`;
    const src = sheet(`<xsl:if test="${iban} mod 97 = 1"/>`);
    const { text, counts } = rewriteStylesheet(src);
    expect(text).toBe(src.replace("xs:integer(string-join", "xs:decimal(string-join"));
    expect(counts["integer-mod97-decimal"]).toBe(1);
  });

  test("leaves other integer uses alone", () => {
    const src = sheet(
      `<xsl:if test="xs:integer(substring($v,1,8)) mod 97 = 1 and xs:integer(string-join(a, '')) mod 970 = 1 and xs:integer(string-join(a, '')) + 1"/>`,
    );
    expect(rewriteStylesheet(src).text).toBe(src);
  });
});

// ---------------------------------------------------------------------------------------------
// Proof on Saxon-HE over the corpus.

const repoRoot = resolve(import.meta.dir, "../..");
const shared = resolve(repoRoot, "../shared");
const SAMPLE = process.env.FULL === "1" ? Infinity : 40;

interface CorpusRow {
  path: string;
  syntax: string;
  profile: string;
}

/** Corpus profiles whose documents exercise a stylesheet, most relevant first. */
function profilesFor(pin: Pin): { syntax: "ubl" | "cii"; profiles: string[] } {
  const p = pin.path;
  const syntax = /ubl/i.test(basename(p)) ? "ubl" : "cii";
  const facturx = ["facturx:en16931", "facturx:extended", "facturx:basic", "facturx:basicwl", "facturx:minimum"];
  switch (pin.key) {
    case "en16931_ubl_schematron":
    case "en16931_cii_schematron":
      return { syntax, profiles: ["en16931", "xrechnung"] };
    case "xrechnung_schematron":
      return { syntax, profiles: ["xrechnung"] };
    case "netherlands_nlcius_schematron":
      return { syntax, profiles: ["netherlands-nlcius"] };
    case "peppol_bis_schematron":
      return { syntax, profiles: ["peppol", "en16931"] };
    case "romania_ro_cius_schematron":
      return { syntax, profiles: ["romania-ro-cius"] };
    case "facturx_schematron": {
      const level = /MINIMUM/.test(p) ? "minimum" : /BASIC-?WL/.test(p) ? "basicwl" : /BASIC/.test(p) ? "basic" : /EXTENDED/.test(p) ? "extended" : "en16931";
      return { syntax: "cii", profiles: [`facturx:${level}`, ...facturx.filter((f) => f !== `facturx:${level}`)] };
    }
    case "france_ctc_schematron":
      // No corpus document declares the French CTC profiles; EXTENDED and EN 16931 documents
      // of the same syntax still drive the rules through their code paths.
      return syntax === "ubl" ? { syntax, profiles: ["en16931"] } : { syntax, profiles: ["facturx:extended", ...facturx, "en16931"] };
    default:
      return { syntax, profiles: [] };
  }
}

/** An evenly spread sample, primary profile first, topped up from the next ones. */
function sample<T>(groups: T[][], max: number): T[] {
  const out: T[] = [];
  for (const g of groups) {
    const room = max - out.length;
    if (room <= 0) break;
    if (g.length <= room) out.push(...g);
    else for (let i = 0; i < room; i++) out.push(g[Math.floor((i * g.length) / room)]);
  }
  return out;
}

const skip = cannotRun("rewrite proof on Saxon-HE", saxonHeUnavailable() ?? corpusMissing ?? mirrorMissing ?? buildMissing());

const work = mkdtempSync(join(tmpdir(), "rewrite-proof-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Corpus documents for a profile list, as XML files (embedded XML extracted from PDFs). */
function documentsFor(corpus: CorpusRow[], syntax: string, profiles: string[]): string[] {
  const groups = profiles.map((profile) =>
    corpus
      .filter((r) => r.profile === profile && (r.syntax === syntax || (syntax === "cii" && r.syntax === "pdf")))
      .map((r) => r.path)
      .sort(),
  );
  return sample(groups, SAMPLE).flatMap((path) => {
    const file = join(shared, "corpus", path);
    if (!path.endsWith(".pdf")) return [file];
    const xml = embeddedCii(readFileSync(file));
    if (!xml) return [];
    const out = join(work, "pdf-xml", path + ".xml");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, xml);
    return [out];
  });
}

type Outcome = { error: string } | { findings: Finding[] };

function outcome(r: { svrl: string | null; error: string | null }): Outcome {
  return r.svrl !== null ? { findings: parseSvrl(r.svrl) } : { error: r.error! };
}

/**
 * Pinned XSLT entries, plus the XSLT our compiler generated from pinned .sch entries when a
 * build has produced it; only stylesheets a rewrite changes need the proof.
 */
function stylesheetsToProve() {
  const generated = new Map((readIndex()?.entries ?? []).filter((e) => e.path.endsWith(".sch")).map((e) => [e.id, e]));
  return pins
    .filter((p) => p.role === "entry" && (/\.xslt?$/.test(p.path) || generated.has(p.path)))
    .map((pin) => {
      const gen = generated.get(pin.path);
      const original = gen ? join(buildDir, gen.sourceXslt) : join(shared, "rulesets", pin.path);
      const source = readFileSync(original, "utf8");
      return { pin, original, source, ...rewriteStylesheet(source, pin.path) };
    })
    .filter((s) => Object.values(s.counts).some((n) => n > 0));
}

const touched = skip ? [] : stylesheetsToProve();

describe.skipIf(skip)("rewritten stylesheets give the pinned stylesheets' findings on Saxon-HE", () => {
  const corpus = skip ? [] : (JSON.parse(readFileSync(join(shared, "corpus/expected.json"), "utf8")) as CorpusRow[]);

  for (const s of touched) {
    test(`${s.pin.path} ${JSON.stringify(s.counts)}`, async () => {
      const { syntax, profiles } = profilesFor(s.pin);
      const docs = documentsFor(corpus, syntax, profiles);
      expect(docs.length).toBeGreaterThan(0);

      // The copy sits in its own folder with the code lists it reads, as in the build.
      const rewritten = join(work, "xsl", s.pin.path);
      mkdirSync(dirname(rewritten), { recursive: true });
      writeFileSync(rewritten, s.text);
      for (const cl of documentTargets(s.source, s.pin.path)) {
        copyFileSync(join(shared, "rulesets", cl), join(dirname(rewritten), basename(cl)));
      }

      const [before, after] = await Promise.all([runSaxonHe(s.original, docs), runSaxonHe(rewritten, docs)]);
      const differing = docs.filter((d) => !Bun.deepEquals(outcome(before.get(d)!), outcome(after.get(d)!)));
      const findings = docs.reduce((n, d) => n + (before.get(d)!.svrl ? parseSvrl(before.get(d)!.svrl!).length : 0), 0);
      const errors = docs.filter((d) => before.get(d)!.error).length;
      console.log(`  ${s.pin.path}: ${docs.length} documents, ${findings} findings, ${errors} stopped with an error; ${differing.length} differ`);
      for (const d of differing.slice(0, 3)) {
        expect({ doc: d, outcome: outcome(after.get(d)!) }).toEqual({ doc: d, outcome: outcome(before.get(d)!) });
      }
      expect(differing).toEqual([]);
    }, 600_000);
  }
});
