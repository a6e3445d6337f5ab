// Every national writer, by the id its catalogue record names (src/profiles/record.ts).

import type { NationalWriterId } from "../profiles/record.ts";
import type { NationalInput, NationalWritten } from "./national.ts";
import { writeFatturaPA } from "./fatturapa/index.ts";
import { writeFacturae } from "./facturae/write.ts";
import { writeEslog } from "./eslog/write.ts";

const WRITERS: Record<NationalWriterId, (input: NationalInput) => NationalWritten> = {
  "fatturapa-ordinaria": (input) => writeFatturaPA(input, "ordinaria"),
  "fatturapa-semplificata": (input) => writeFatturaPA(input, "semplificata"),
  facturae: writeFacturae,
  eslog: writeEslog,
};

export const writeNational = (writer: NationalWriterId, input: NationalInput): NationalWritten => WRITERS[writer](input);
