// Every national writer, by the id its catalogue record names (src/profiles/record.ts). A record
// whose writer is not here yet is generated nowhere: generate answers that it is not available.

import type { NationalWriterId } from "../profiles/record.ts";
import type { NationalInput, NationalWritten } from "./national.ts";
import { writeEslog } from "./eslog/write.ts";

const WRITERS: Partial<Record<NationalWriterId, (input: NationalInput) => NationalWritten>> = {
  eslog: writeEslog,
};

/** The writer of a national format, when it exists. */
export const nationalWriter = (writer: NationalWriterId) => WRITERS[writer];
