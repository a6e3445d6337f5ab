// Payment instructions (BG-16) with credit transfer (BG-17), card (BG-18) and direct debit (BG-19).

import type { Decimal } from "./common.ts";

/** BG-17 CREDIT TRANSFER. */
export interface CreditTransfer {
  /** BT-84: payment account identifier (IBAN or other). */
  accountId: string;
  /** BT-85: payment account name. */
  accountName?: string;
  /** BT-86: payment service provider identifier (BIC). */
  serviceProviderId?: string;
}

/** BG-18 PAYMENT CARD INFORMATION. */
export interface PaymentCard {
  /** BT-87: payment card primary account number (at most the last 4-6 digits in clear). */
  primaryAccountNumber: string;
  /** BT-88: payment card holder name. */
  holderName?: string;
  /** UBL `cbc:NetworkID`, mandatory in the syntax, absent from EN 16931 (e.g. `VISA`). */
  networkId?: string;
}

/** BG-19 DIRECT DEBIT. */
export interface DirectDebit {
  /** BT-89: mandate reference identifier. */
  mandateReference?: string;
  /** BT-90: bank assigned creditor identifier (SEPA creditor id). */
  creditorId?: string;
  /** BT-91: debited account identifier. */
  debitedAccountId?: string;
}

/**
 * BG-DEX-09 THIRD PARTY PAYMENT (XRechnung extension): an amount a third party pays or paid,
 * e.g. a voucher or mobile payment, reducing the amount due.
 */
export interface ThirdPartyPayment {
  /** BT-DEX-001: third party payment type. */
  typeId: string;
  /** BT-DEX-002: third party payment amount. */
  amount: Decimal;
  /** BT-DEX-003: third party payment description. */
  description: string;
}

/** BG-16 PAYMENT INSTRUCTIONS. */
export interface PaymentInstructions {
  /** BT-81: payment means type code (UNTDID 4461, e.g. `58` SEPA credit transfer). */
  meansTypeCode: string;
  /** BT-82: payment means text. */
  meansText?: string;
  /** BT-83: remittance information (the payment reference). */
  remittanceInformation?: string;
  /** BG-17 (0..n): credit transfers, one per account. */
  creditTransfers: CreditTransfer[];
  /** BG-18 (0..1): payment card information. */
  card?: PaymentCard;
  /** BG-19 (0..1): direct debit. */
  directDebit?: DirectDebit;
}
