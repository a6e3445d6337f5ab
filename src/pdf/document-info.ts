// What the Info dictionary and XMP say about an invoice PDF: title, author, subject and date, all
// taken from the invoice so the same invoice always gives the same metadata.

import type { Invoice } from "../model/index.ts";
import { languageFor } from "./labels.ts";

interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  date: Date;
}

/**
 * `now` is the caller's clock (the request time); without it the issue date at midnight UTC stands
 * in, which keeps output reproducible for a given invoice.
 */
export function documentInfo(model: Invoice, now?: Date): DocumentInfo {
  const labels = languageFor(model.seller.address.countryCode).labels;
  const title = `${model.kind === "creditNote" ? labels.creditNote : labels.invoice} ${model.invoiceNumber}`;
  const issued = new Date(`${model.issueDate}T00:00:00Z`);
  return {
    title,
    author: model.seller.name,
    subject: `${title} · ${model.seller.name} · ${model.buyer.name}`,
    // Whole seconds: the PDF date format has no milliseconds, and Info and XMP must agree.
    date: new Date(Math.floor((now ?? (Number.isNaN(issued.getTime()) ? new Date(0) : issued)).getTime() / 1000) * 1000),
  };
}
