import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Check, Let } from "../../src/schematron/model.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";

const FIXTURES = join(import.meta.dir, "fixtures");

describe("parseSchematron on the fixture schema", () => {
  const schema = parseSchematron(join(FIXTURES, "rules.sch"));

  test("reads schema-level title, namespaces, lets and XSLT functions", () => {
    expect(schema.title).toBe("Fixture rules");
    expect(schema.queryBinding).toBe("xslt2");
    expect(schema.namespaces.map((ns) => ns.prefix)).toEqual(["inv", "c", "t"]);
    expect(schema.lets.map((let_) => [let_.name, let_.value])).toEqual([["currency", "'EUR'"]]);
    expect(schema.xslt).toHaveLength(1);
    expect(schema.xslt[0].name).toBe("t:positive");
    // Kept verbatim, with the prefix it needs declared although it was bound on <schema>.
    expect(schema.xslt[0].xml).toContain('xmlns:t="urn:test:functions"');
    expect(schema.xslt[0].xml).toContain('select="number($value) &gt; 0"');
  });

  test("instantiates the included abstract pattern with its parameters", () => {
    const [amounts] = schema.patterns;
    expect(amounts.id).toBe("line-amounts");
    expect(amounts.isA).toBe("amounts");
    expect(amounts.title).toBe("Amounts");
    expect(amounts.origin.file).toEndWith("parts/line-amounts.sch");
    const [rule] = amounts.rules;
    expect(rule.origin.file).toEndWith("parts/abstract-amounts.sch");
    // $line_amount is replaced whole although $line is a parameter too.
    expect(rule.context).toBe("c:Line/c:Amount");
    const check = rule.items[0] as Check;
    expect(check.flag).toBe("warning");
    expect(check.message).toEqual([
      { kind: "text", text: "Amount " },
      { kind: "value-of", select: "." },
      { kind: "text", text: " of c:Line must be positive." },
    ]);
  });

  test("keeps rules in order, resolves extends and rule-level includes", () => {
    const order = schema.patterns[1];
    expect(order.id).toBe("order");
    expect(order.lets.map((let_) => let_.name)).toEqual(["lineCount"]);
    // The abstract rule is not a rule of its own.
    expect(order.rules.map((rule) => rule.context)).toEqual(["c:Line[@code = 'x']", "c:Line", "@code", "Note"]);

    const [first, second] = order.rules;
    expect(first.items.map((item) => (item.kind === "let" ? `let ${item.name}` : item.id))).toEqual([
      "let amount",
      "T-FIRST",
      "T-AMOUNT",
    ]);
    const report = first.items[1] as Check;
    expect(report.kind).toBe("report");
    expect(report.message).toEqual([
      { kind: "text", text: "Line " },
      { kind: "value-of", select: "@code" },
      { kind: "text", text: " of " },
      { kind: "value-of", select: "$lineCount" },
      { kind: "text", text: " has " },
      { kind: "name" },
      { kind: "text", text: " amount " },
      { kind: "value-of", select: "$amount" },
      { kind: "text", text: " " },
      { kind: "value-of", select: "$currency" },
      { kind: "text", text: "." },
    ]);

    const [limit, check] = second.items as [Let, Check];
    expect([limit.name, limit.value]).toEqual(["limit", "0"]);
    expect(limit.origin.file).toEndWith("parts/line-checks.xml");
    expect(check.id).toBe("T-LIMIT");
  });
});

describe("parseSchematron errors name the file, line and element", () => {
  const dir = mkdtempSync(join(tmpdir(), "sch-parse-"));
  const write = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">\n${body}\n</schema>`);
    return file;
  };

  test("a rule without context", () => {
    const file = write("no-context.sch", `<pattern>\n<rule><assert test="true()">x</assert></rule>\n</pattern>`);
    expect(() => parseSchematron(file)).toThrow(`${file}:3: <rule>: missing @context`);
  });

  test("an is-a naming no abstract pattern", () => {
    const file = write("no-abstract.sch", `<pattern id="p" is-a="missing"/>`);
    expect(() => parseSchematron(file)).toThrow(`${file}:2: <pattern>: is-a="missing" names no abstract pattern`);
  });

  test("an include of a missing file", () => {
    const file = write("missing-include.sch", `<include href="nowhere.sch"/>`);
    expect(() => parseSchematron(file)).toThrow(`${file}:2: <include>: cannot read ${join(dir, "nowhere.sch")}`);
  });

  test("an include cycle", () => {
    writeFileSync(
      join(dir, "loop.sch"),
      `<pattern xmlns="http://purl.oclc.org/dsdl/schematron"><include href="loop.sch"/></pattern>`,
    );
    const file = write("cycle.sch", `<include href="loop.sch"/>`);
    expect(() => parseSchematron(file)).toThrow(`<include>: href="loop.sch" includes itself (cycle)`);
  });

  test("an unsupported element", () => {
    const file = write("unsupported.sch", `<pattern><rule context="*"><foo xmlns="urn:x"/></rule></pattern>`);
    expect(() => parseSchematron(file)).toThrow(`${file}:2: <foo>: unexpected element outside the Schematron namespace`);
  });

  test("a query binding other than xslt2", () => {
    const file = join(dir, "xpath.sch");
    writeFileSync(file, `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xpath"/>`);
    expect(() => parseSchematron(file)).toThrow(`queryBinding "xpath" is not supported`);
  });
});

describe("parseSchematron runs part of a schema when asked", () => {
  const file = join(mkdtempSync(join(tmpdir(), "sch-parts-")), "phases.sch");
  const pattern = (id: string) => `<pattern id="${id}"><rule context="/*"><assert id="${id}-1" test="true()">x</assert></rule></pattern>`;
  writeFileSync(
    file,
    `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
<phase id="national"><active pattern="C"/></phase>
${pattern("A")}${pattern("B")}${pattern("C")}
</schema>`,
  );
  const ids = (selection?: Parameters<typeof parseSchematron>[1]) => parseSchematron(file, selection).patterns.map((p) => p.id);

  test("every pattern without a selection, a phase's active patterns, or every pattern but those named", () => {
    expect(ids()).toEqual(["A", "B", "C"]);
    expect(ids({ phase: "national" })).toEqual(["C"]);
    expect(ids({ without: ["C"] })).toEqual(["A", "B"]);
  });

  test("a phase or pattern the schema lacks is refused, never taken as all or nothing", () => {
    expect(() => ids({ phase: "nowhere" })).toThrow(`<schema>: no phase "nowhere"`);
    expect(() => ids({ without: ["D"] })).toThrow(`<schema>: no pattern "D"`);
  });
});
