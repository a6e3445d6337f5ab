import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseSvrl } from "../../src/validation/svrl";
import { cannotRun } from "../support/requirements";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he";

const skip = cannotRun("Saxon-HE oracle", saxonHeUnavailable());

const work = mkdtempSync(join(tmpdir(), "saxon-he-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A hand-written Schematron-style stylesheet: one assert that fails when <a> is not "ok",
// and normalize-space(//a) stops with XPTY0004 when there are two <a>.
const xsl = `<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <xsl:template match="/">
    <svrl:schematron-output>
      <xsl:if test="normalize-space(//a) != 'ok'">
        <svrl:failed-assert id="R-1" flag="fatal" location="/x[1]/a[1]">
          <svrl:text>a must be ok, is <xsl:value-of select="//a"/></svrl:text>
        </svrl:failed-assert>
      </xsl:if>
    </svrl:schematron-output>
  </xsl:template>
</xsl:stylesheet>`;

describe.skipIf(skip)("runSaxonHe", () => {
  test("runs one stylesheet over many documents, one result per document", async () => {
    writeFileSync(join(work, "t.xsl"), xsl);
    // Same file name in two folders: results must still be kept apart.
    for (const d of ["d1", "d2"]) mkdirSync(join(work, d));
    const docs = {
      good: join(work, "d1/doc.xml"),
      bad: join(work, "d2/doc.xml"),
      twoA: join(work, "two.xml"),
      notXml: join(work, "broken.xml"),
    };
    writeFileSync(docs.good, "<x><a>ok</a></x>");
    writeFileSync(docs.bad, "<x><a>no</a></x>");
    writeFileSync(docs.twoA, "<x><a>1</a><a>2</a></x>");
    writeFileSync(docs.notXml, "not xml");
    const results = await runSaxonHe(join(work, "t.xsl"), Object.values(docs));
    expect(parseSvrl(results.get(docs.good)!.svrl!)).toEqual([]);
    expect(parseSvrl(results.get(docs.bad)!.svrl!)).toEqual([
      { ruleId: "R-1", flag: "fatal", location: "/x[1]/a[1]", message: "a must be ok, is no" },
    ]);
    expect(results.get(docs.twoA)).toEqual({ svrl: null, error: expect.stringMatching(/^XPTY0004: A sequence of more than one item/) });
    expect(results.get(docs.notXml)!.error).toStartWith("SXXP0003");
  }, 60_000);

  test("a stylesheet that does not compile is an error, not per-document results", async () => {
    writeFileSync(join(work, "bad.xsl"), `<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:value-of select="(("/></xsl:template></xsl:stylesheet>`);
    writeFileSync(join(work, "one.xml"), "<x/>");
    await expect(runSaxonHe(join(work, "bad.xsl"), [join(work, "one.xml")])).rejects.toThrow("Saxon-HE failed on");
  }, 60_000);
});
