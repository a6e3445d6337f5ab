import { describe, expect, test } from "bun:test";
import { collectionAfter, collectionBefore, GROWN_SINCE_COLLECTED, isLargeXml, PDF_JOBS_PER_COLLECTION } from "../../src/workers/heap-collections";

const MIB = 1024 * 1024;
const xml = (bytes: number) => new TextEncoder().encode(`<Invoice>${" ".repeat(bytes)}</Invoice>`);

describe("what a worker collects around a job", () => {
  test("large XML documents are those past 256 KiB that are not PDF", () => {
    expect(isLargeXml(xml(300 * 1024))).toBe(true);
    expect(isLargeXml(xml(10 * 1024))).toBe(false);
    const pdf = new Uint8Array(300 * 1024);
    pdf.set(new TextEncoder().encode("%PDF-1.7\n"));
    expect(isLargeXml(pdf)).toBe(false);
  });

  test("before a large document: a young collection, so the document's job starts with the whole young allowance", () => {
    expect(collectionBefore(100 * MIB, 90 * MIB)).toBe("young");
    expect(collectionBefore(90 * MIB + GROWN_SINCE_COLLECTED, 90 * MIB)).toBe("young");
  });

  test("before a large document on a heap grown past the bound since its last full collection: a full one", () => {
    expect(collectionBefore(90 * MIB + GROWN_SINCE_COLLECTED + 1, 90 * MIB)).toBe("full");
  });

  test("after a large document: a full collection only when another job runs in the pool", () => {
    expect(collectionAfter(true, true, undefined)).toBe("full");
    expect(collectionAfter(true, false, undefined)).toBe("none");
    expect(collectionAfter(false, true, undefined)).toBe("none");
  });

  test("after a hybrid PDF: a full collection every fourth one", () => {
    const collected = Array.from({ length: 3 * PDF_JOBS_PER_COLLECTION }, (_, i) => collectionAfter(false, false, i + 1));
    expect(collected.filter((c) => c === "full")).toHaveLength(3);
    expect(collected[PDF_JOBS_PER_COLLECTION - 1]).toBe("full");
    expect(collectionAfter(false, false, 1)).toBe("none");
  });
});
