// Test-key output is marked (interface specification, Test-mode marking): a comment right after the
// XML declaration. A comment changes no business term, so the verdict stays that of the same
// document generated with a live key.

export const TEST_MODE_COMMENT =
  "<!-- TEST MODE: generated with a test API key. This is not a valid production invoice and it was not transmitted. -->";

export function markTestMode(xml: string): string {
  const end = xml.startsWith("<?xml") ? xml.indexOf("?>") + 2 : 0;
  return `${xml.slice(0, end)}\n${TEST_MODE_COMMENT}${end === 0 ? "\n" : ""}${xml.slice(end)}`;
}
