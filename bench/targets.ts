/** Issue 23's targets: `bun run bench` marks each met or NOT MET (figures never live in unit tests). */
export const TARGETS = {
  /** einvoice over HTTP (median, sequential) at most this share of Saxon-HE running the same rule files alone. */
  ratio: 0.5,
  /** Typical XRechnung UBL validations per second over HTTP, a worker per core, twice as many clients. */
  perSecond: 600,
  /** p99 of the typical invoice paced at half `perSecond`, in milliseconds. */
  pacedP99Ms: 15,
  /** A 5,000-line invoice judged by `einvoice validate`, whole process, in milliseconds. */
  offline5000Ms: 1500,
  /** Peak RSS of any server under the loads: 512 MB held to the decimal megabyte, the stricter reading (488 MiB). */
  peakRssBytes: 512e6,
};
