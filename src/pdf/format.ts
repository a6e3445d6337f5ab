// Numbers and dates as the reader's language writes them. Works on the model's decimal strings,
// never floats, so what is printed is exactly what the XML carries.

import { decimal, type Decimal, type IsoDate } from "../model/index.ts";
import type { Language, NumberStyle } from "./labels.ts";

function styled(value: Decimal, style: NumberStyle): string {
  const negative = value.startsWith("-");
  const [whole, fraction] = (negative ? value.slice(1) : value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, style.group);
  return `${negative ? "-" : ""}${grouped}${fraction ? style.decimal + fraction : ""}`;
}

// A model read from a thin profile (Factur-X MINIMUM) or a damaged source can hold an empty or
// non-numeric string where a number belongs; it is shown as it is rather than failing the page.

/** An amount: at least two decimals, more when the source has more (unit prices often do). */
export function formatAmount(value: Decimal, language: Language): string {
  if (!decimal.isDecimal(value)) return value;
  return styled(decimal.toFixed(value, Math.max(2, decimal.decimalPlaces(value))), language.numbers);
}

/** A quantity or rate: as few decimals as its value needs ("19.00" -> "19", "2.50" -> "2,5"). */
export function formatNumber(value: Decimal, language: Language): string {
  if (!decimal.isDecimal(value)) return value;
  return styled(decimal.normalize(value), language.numbers);
}

export function formatDate(value: IsoDate, language: Language): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  return language.date.replace("YYYY", m[1]).replace("MM", m[2]).replace("DD", m[3]);
}
