// A plan compiles each distinct node test once (src/native/xpath/axes.ts, `compileTest`): the
// Factur-X rule files' thousand long absolute contexts repeat a few dozen names, and a test per
// step was a good part of what their plans held. Sharing must not mix up what the tests tell apart.

import { describe, expect, test } from "bun:test";
import { readXml } from "../../src/native/xml-reader.ts";
import { compileTest } from "../../src/native/xpath/axes.ts";
import { Scope } from "../../src/native/xpath/context.ts";
import { CompileSession } from "../../src/native/xpath/session.ts";
import type { NodeTest } from "../../src/native/xpath/ast.ts";

const name = (prefix: string | null, local: string | null): NodeTest => ({ kind: "name", prefix, local });

describe("node tests shared by a plan", () => {
  const session = new CompileSession();
  const scope = new Scope(session, new Map([["a", "urn:a"], ["b", "urn:b"]]), new Map());

  test("one test per name and axis kind in a session", () => {
    const first = compileTest(name("a", "x"), "child", scope);
    expect(compileTest(name("a", "x"), "descendant", scope)).toBe(first);
    expect(compileTest(name("a", "x"), "attribute", scope)).not.toBe(first);
    expect(compileTest(name("b", "x"), "child", scope)).not.toBe(first);
    expect(compileTest(name(null, "x"), "child", scope)).not.toBe(first);
    expect(compileTest(name("a", null), "child", scope)).not.toBe(first);
    expect(compileTest({ kind: "type", type: "text" }, "child", scope)).toBe(compileTest({ kind: "type", type: "text" }, "descendant", scope));
    // Another plan starts from nothing.
    expect(compileTest(name("a", "x"), "child", new Scope(new CompileSession(), new Map([["a", "urn:a"]]), new Map()))).not.toBe(first);
  });

  test("a prefix bound to another namespace in another scope of the plan gets its own test", () => {
    const other = new Scope(session, new Map([["a", "urn:other"]]), new Map());
    const doc = readXml(`<r xmlns:a="urn:a" xmlns:o="urn:other"><a:x/><o:x/></r>`);
    const [ax, ox] = doc.node.children[0].children;
    expect(compileTest(name("a", "x"), "child", scope).matches(ax)).toBe(true);
    expect(compileTest(name("a", "x"), "child", other).matches(ax)).toBe(false);
    expect(compileTest(name("a", "x"), "child", other).matches(ox)).toBe(true);
  });

  test("element and attribute tests of one name stay apart", () => {
    const doc = readXml(`<r a="1"><a/></r>`);
    const r = doc.node.children[0];
    const [attribute] = r.attributes;
    const [element] = r.children;
    expect(compileTest(name(null, "a"), "child", scope).matches(element)).toBe(true);
    expect(compileTest(name(null, "a"), "child", scope).matches(attribute)).toBe(false);
    expect(compileTest(name(null, "a"), "attribute", scope).matches(attribute)).toBe(true);
    expect(compileTest(name(null, "a"), "attribute", scope).matches(element)).toBe(false);
  });
});
