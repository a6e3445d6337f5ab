import { GenerateError } from "../generate/errors";
import { ApiError } from "./errors";
import type { ErrorCode } from "./error-codes";

/** The generate/parse domain decides its refusals; HTTP only carries them. */
export async function carryDomainErrors<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GenerateError) throw new ApiError(error.status, error.code as ErrorCode, error.message, error.details);
    throw error;
  }
}
