import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { createXsdEngine } from "../../src/validation/xsd.ts";
import { schemaFor } from "../../src/validation/xsd-schemas.ts";
import { XSD_SCHEMAS, type XsdSchemaId } from "../../src/profiles/schemas.ts";
import { fallbackRecord } from "../../src/profiles/lookup.ts";
import { detect } from "../../src/syntax/detect.ts";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { corpusFile, corpusMissing, corpusRows, mirrorMissing, RULESETS_DIR, rulesetFile } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

const noMirror = cannotRun("XSD validation over the pinned schemas", mirrorMissing);
const noCorpus = cannotRun("XSD verdicts on the corpus", corpusMissing);

interface Pin { key: string; version: string; path: string; role: string }
const pins = JSON.parse(readFileSync(new URL("../../rulesets/pins.json", import.meta.url), "utf8")) as Pin[];

test("the schema table is exactly the pinned entry .xsd rows", () => {
  const entries = pins.filter((p) => p.role === "entry" && p.path.endsWith(".xsd")).map((p) => p.path).sort();
  expect(Object.values(XSD_SCHEMAS as Record<string, string>).sort()).toEqual(entries);
});

describe.skipIf(noMirror)("XSD validation over the pinned schemas", () => {
  const requested = new Set<string>();
  const files = (path: string) => {
    requested.add(path);
    return rulesetFile(path);
  };
  const engine = createXsdEngine(files);
  afterAll(() => engine.dispose());

  // Read when the tests run, not when they are collected: without the mirror the block is skipped.
  let ublExample: Uint8Array;
  beforeAll(() => {
    ublExample = readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-example1.xml`);
  });
  const validUbl = () => expect(engine.validate("ubl-invoice", ublExample).valid).toBe(true);

  test("every root schema compiles, offline, reading only pinned files", () => {
    const times: string[] = [];
    for (const id of Object.keys(XSD_SCHEMAS) as XsdSchemaId[]) {
      const start = performance.now();
      engine.warm([id]);
      times.push(`${id} ${(performance.now() - start).toFixed(1)} ms`);
    }
    console.log(`schema compile times (once per process):\n  ${times.join("\n  ")}`);
    const pinned = new Set(pins.map((p) => p.path));
    expect([...requested].filter((p) => !pinned.has(p))).toEqual([]);
    // The catalog maps both absolute xmldsig URLs to the copy of the importing key: every national
    // schema that imports the signature schema loaded it, none skipped it.
    for (const key of ["fatturapa_xsd/1.2.2", "fatturapa_semplificata_xsd/1.0.1", "facturae_xsd/3.2.2", "eslog_xsd/2.0", "sdi_messaggi_xsd/1.1"]) {
      expect([key, requested.has(`${key}/xmldsig-core-schema.xsd`)]).toEqual([key, true]);
    }
  });

  test("a typical UBL invoice validates in well under 1 ms once the schema is compiled", () => {
    for (let i = 0; i < 50; i++) validUbl();
    const runs = 300;
    const start = performance.now();
    for (let i = 0; i < runs; i++) engine.validate("ubl-invoice", ublExample);
    const avg = (performance.now() - start) / runs;
    console.log(`UBL ${ublExample.byteLength} bytes: ${avg.toFixed(3)} ms per validation (parse + XSD)`);
    expect(avg).toBeLessThan(5); // generous bound: the machine is shared; measured ~0.6 ms
  });

  test("schema errors carry message, line, column and location", () => {
    const broken = new TextDecoder().decode(ublExample).replace("<cbc:IssueDate>", "<cbc:Unexpected>x</cbc:Unexpected><cbc:IssueDate>");
    const outcome = engine.validate("ubl-invoice", broken);
    expect(outcome.status).toBe("invalid");
    // libxml2 reports no column for validity errors, only for well-formedness errors.
    expect(outcome.findings[0]).toMatchObject({ message: expect.stringContaining("Unexpected"), line: expect.any(Number), location: "/*/cbc:Unexpected" });
    expect(engine.validate("ubl-invoice", "<a><b></a>").findings[0]).toMatchObject({ line: 1, column: expect.any(Number) });
  });

  describe("hostile input gets a clear finding quickly and the process survives", () => {
    const hostile: [string, string | Uint8Array, string][] = [
      [
        "billion laughs",
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol9;</Invoice>`,
        "refused",
      ],
      ["external entity to a local file", `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>`, "refused"],
      ["external entity to an http URL", `<!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:9/x.xml">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>`, "refused"],
      ["lower-case doctype after a comment", `<!-- hi --><!doctype r SYSTEM "http://127.0.0.1:9/x.dtd"><r/>`, "refused"],
      ["not well-formed", `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>1</Invoice>`, "malformed"],
      ["truncated", new TextDecoder().decode(ublExample).slice(0, 5000), "malformed"],
      ["1 MB of deeply nested elements", `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${"<a>".repeat(349_000)}`, "malformed"],
      ["undeclared entity", `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>`, "malformed"],
      ["schema hint to a remote XSD is ignored", `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 http://127.0.0.1:9/evil.xsd"/>`, "invalid"],
    ];
    test.each(hostile)("%s", (_name, xml, status) => {
      const start = performance.now();
      const outcome = engine.validate("ubl-invoice", xml);
      const ms = performance.now() - start;
      expect(outcome.status).toBe(status as never);
      expect(outcome.valid).toBe(false);
      expect(outcome.findings.length).toBeGreaterThan(0);
      expect(outcome.findings[0]!.message.length).toBeGreaterThan(10);
      expect(outcome.findings.map((f) => f.message).join(" ")).not.toContain("root:x:0:0");
      expect(ms).toBeLessThan(1000);
      validUbl();
    });

    test("oversized input is refused unparsed", () => {
      const small = createXsdEngine(rulesetFile, { maxBytes: 1000 });
      const outcome = small.validate("ubl-invoice", ublExample);
      expect(outcome).toMatchObject({ status: "refused", findings: [{ message: expect.stringContaining("exceeds") }] });
      small.dispose();
    });
  });

  test.skipIf(noCorpus)("every corpus document upstream calls valid passes its schema (exceptions explained)", async () => {
    const counts = new Map<string, number>();
    const exceptions: string[] = [];
    const failures: string[] = [];
    for (const row of corpusRows()) {
      if (row.expectedValid !== true) continue;
      const bytes = corpusFile(row);
      if (!bytes) continue;
      let xml: Uint8Array = bytes;
      if (row.syntax === "pdf") {
        const x = await extractInvoiceXml(bytes);
        if (!x.ok) {
          failures.push(`${row.path}: ${x.message}`);
          continue;
        }
        xml = x.xml;
      }
      const detection = detect(xml, { hybrid: row.syntax === "pdf" });
      const record = detection.record ?? (detection.format === "unknown" ? undefined : fallbackRecord(detection.format));
      const schema = record && schemaFor(record, detection.documentType);
      if (!schema) {
        exceptions.push(`${row.path}: no schema (${detection.note})`);
        continue;
      }
      const outcome = engine.validate(schema, xml);
      counts.set(schema, (counts.get(schema) ?? 0) + 1);
      if (outcome.valid) continue;
      // Hybrid XML from the ZUGFeRD 2.0/2.1 era was checked by the corpus against CII D16B; some of
      // it breaks the stricter Factur-X 1.09 profile subsets we pin. Report, but only accept that.
      if (schema.startsWith("facturx-") && engine.validate("cii-d16b", xml).valid) {
        exceptions.push(`${row.path}: valid CII D16B, fails ${schema} (1.09): ${outcome.findings[0]!.message}`);
      } else if (outcome.status === "malformed" && outcome.findings.every((f) => /^xmlns(:[\w.-]+)?: '.*' is not a valid URI/.test(f.message))) {
        // libxml2-wasm reports a namespace value that is no URI as an error; the corpus' libxml took it as a warning.
        exceptions.push(`${row.path}: namespace value not a URI, an error in this libxml2 build: ${outcome.findings[0]!.message}`);
      } else {
        failures.push(`${row.path} [${schema}]: ${outcome.findings.slice(0, 2).map((f) => f.message).join(" | ")}`);
      }
    }
    console.log(`corpus documents per schema: ${JSON.stringify(Object.fromEntries(counts))}\nexceptions (${exceptions.length}):\n  ${exceptions.join("\n  ")}`);
    expect(failures).toEqual([]);
    for (const e of exceptions) expect(e).toMatch(/ZUGFeRD 1\.0|valid CII D16B|namespace value not a URI|FatturaElettronicaSemplificata/);
  }, 120_000);

  describe("roots compiled together (XSD_COMPILED_TOGETHER): the UBL invoice and credit note", () => {
    // A character reference anywhere (here in a comment after the root) sends a document to its
    // root's own validator: the same document, judged by both.
    const toOwnValidator = (bytes: Uint8Array) => Buffer.concat([bytes, Buffer.from("<!--&#-->")]);
    const ext = (child: string) =>
      `<ext:UBLExtensions xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"><ext:UBLExtension><ext:ExtensionContent>${child}</ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>`;
    const withExtension = (child: string) => new TextDecoder().decode(ublExample).replace("<cbc:CustomizationID", `${ext(child)}<cbc:CustomizationID`);

    beforeAll(() => engine.warm(["ubl-invoice"]));

    test("a warmed engine judges both roots with one validator; a cold one compiles only the root it needs", () => {
      const read = new Set<string>();
      const tracked = createXsdEngine((path) => {
        read.add(path);
        return rulesetFile(path);
      });
      try {
        const creditNoteSchema = XSD_SCHEMAS["ubl-creditnote"];
        // The command line judges one document: its root's schema alone.
        expect(tracked.validate("ubl-invoice", ublExample).status).toBe("valid");
        expect(read.has(creditNoteSchema)).toBe(false);
        // A worker warms at start: both roots in one validator, which judges the next documents.
        tracked.warm(["ubl-invoice"]);
        expect(read.has(creditNoteSchema)).toBe(true);
        read.clear();
        const creditNoteFile = readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-creditnote1.xml`);
        expect(tracked.validate("ubl-creditnote", creditNoteFile).status).toBe("valid");
        expect([...read]).toEqual([]);
      } finally {
        tracked.dispose();
      }
    });

    test("no document can reach another root's declarations", () => {
      // UBL's extension content takes any element of another namespace, validated when the schema
      // declares it (lax): against the shared validator, an empty credit note there breaks its
      // declaration; against the invoice's own, nothing declares it and it passes.
      const creditNote = `<cn:CreditNote xmlns:cn="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>`;
      expect(engine.validate("ubl-invoice", withExtension(creditNote)).status).toBe("valid");
      // The namespace hidden behind a character reference.
      expect(engine.validate("ubl-invoice", withExtension(creditNote.replace("CreditNote-2", "Credit&#78;ote-2"))).status).toBe("valid");
      // A credit note judged as an invoice has no declaration for its root.
      const creditNoteFile = readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-creditnote1.xml`);
      expect(engine.validate("ubl-invoice", creditNoteFile).findings[0]?.message).toContain("No matching global declaration");
      expect(engine.validate("ubl-creditnote", creditNoteFile).status).toBe("valid");
      validUbl();
    });

    test.skipIf(noCorpus)("every UBL document of the corpus gets the verdict and findings of its root's own schema", () => {
      let judged = 0;
      for (const row of corpusRows()) {
        if (row.syntax !== "ubl") continue;
        const bytes = corpusFile(row);
        if (!bytes) continue;
        const detection = detect(bytes);
        const record = detection.record ?? (detection.format === "unknown" ? undefined : fallbackRecord(detection.format));
        const schema = record && schemaFor(record, detection.documentType);
        if (schema !== "ubl-invoice" && schema !== "ubl-creditnote") continue;
        const { status, findings } = engine.validate(schema, bytes);
        const own = engine.validate(schema, toOwnValidator(bytes));
        expect({ path: row.path, status, findings }).toEqual({ path: row.path, status: own.status, findings: own.findings });
        judged++;
      }
      expect(judged).toBeGreaterThan(100);
    }, 120_000);
  });

  test.skipIf(noCorpus)("files the corpus README names as failing the XSD fail here too", () => {
    const cases: [string, XsdSchemaId, string][] = [
      ["simplerinvoicing-testset/NLCIUS-CII/NLCIUS-CII_ok_example.xml", "cii-d16b", "invalid"],
      ["zugferd-corpus/fatturaPA/official/valid/IT01234567890_FPR02.xml", "fatturapa", "invalid"],
      ["zugferd-corpus/fatturaPA/eigor/valid/con-ritenuta-acconto-e-cassa-previdenziale.xml", "fatturapa", "malformed"],
      ["gobl-fatturapa/test/data/fatturapa.gobl/acube_test.xml", "fatturapa", "invalid"],
      ["gobl-fatturapa/test/data/fatturapa.gobl/invoice-windows1252.xml", "fatturapa", "invalid"],
    ];
    for (const [path, schema, status] of cases) {
      const file = `${RULESETS_DIR}../corpus/${path}`;
      if (!existsSync(file)) continue; // may sit in the withheld hold-out set
      expect({ path, status: engine.validate(schema, readFileSync(file)).status }).toEqual({ path, status: status as never });
    }
  });
});
